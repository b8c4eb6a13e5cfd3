// The Redirecting.. page's only script. It must stay tiny (a few kilobytes gzipped with all it
// loads): no React, no supabase-js; only the shared lookup and target rule.
import { goCardOf } from '../../../shared/core/card-link.js';
import { fetchActiveEntry, type LookupOptions } from '../../../shared/core/lookup.js';
import { destinationUrl } from '../../../shared/core/rules.js';
import { siteConfig } from '../site-config.js';
import { countVisit } from './count-visit.js';
import { storedAccessToken } from './session-token.js';

/** The redirect happens this long after the lookup finished (the product's 1.5 s). */
const REDIRECT_DELAY_MS = 1500;
/** A backend that does not answer within this time counts as a failure: main site. */
const LOOKUP_TIMEOUT_MS = 4000;

// Which card: /go/?c=<slug> that card, a bare /go/ the card main (one GET of namecard_go on a URL
// fixed by the slug); a `c` that is no slug asks nothing and, as an unknown card does, lands on
// the main site and counts nothing.
const card = goCardOf(window.location.search);
const lookup: LookupOptions = { ...siteConfig, timeoutMs: LOOKUP_TIMEOUT_MS, card: card ?? '' };

// The visitor's lookup leaves first, before anything else runs (storage included): a request
// with no custom header, which the browser sends at once with no CORS preflight.
let pending = card === undefined ? Promise.resolve(null) : fetchActiveEntry(lookup);
// Only an owner signed in on this device has a token; their lookup carries it (and pays one
// preflight), and the anonymous one is left unused.
const accessToken = storedAccessToken(siteConfig.supabaseUrl, Date.now());
if (accessToken && card !== undefined) {
  pending.catch(() => undefined);
  pending = fetchActiveEntry({ ...lookup, accessToken });
}

async function chooseTarget(): Promise<string> {
  try {
    // The profile's own URL, when the build allows its origin; else the build's target.
    return destinationUrl(await pending, siteConfig);
  } catch (error) {
    // Any failure sends the visitor to the main site; the error is only logged.
    console.error('namecard: lookup failed, using the main site', error);
    return siteConfig.mainUrl;
  }
}

async function redirect(): Promise<void> {
  const target = await chooseTarget();
  const link = document.getElementById('target');
  if (link instanceof HTMLAnchorElement) link.href = target;
  // When the lookup finished (epoch ms, page clock) and where it leads: read by the browser tests.
  const root = document.documentElement;
  root.dataset.target = target;
  root.dataset.lookupDoneAt = String(performance.timeOrigin + performance.now());
  setTimeout(() => window.location.replace(target), REDIRECT_DELAY_MS);
  // The count leaves after the redirect is scheduled, and nothing waits for it.
  try {
    if (card !== undefined) countVisit(siteConfig, card);
  } catch {
    // counting never troubles the visitor
  }
}

void redirect();
