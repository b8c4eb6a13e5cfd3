// The namecard module: the rules and data calls that the CLI and the site share.
// The Redirecting.. page imports `lookup.js` and `rules.js` directly to stay small.
export * from './errors.js';
export * from './types.js';
export * from './rules.js';
export * from './time.js';
export * from './config.js';
export * from './lookup.js';
export * from './data.js';
export * from './client.js';
