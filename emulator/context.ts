import type { SchemaCache } from './catalog/schema-cache.js';
import type { Db } from './db/index.js';
import type { RateLimits } from './limits.js';

/** What the HTTP handlers share for one running emulator. */
export interface ServerContext {
  db: Db;
  /** API URL, e.g. http://127.0.0.1:54321; set once the server listens. */
  baseUrl: string;
  /** Access token lifetime in seconds. */
  accessTokenLifetime: number;
  /** Seconds a revoked refresh token may still be exchanged. */
  refreshTokenReuseInterval: number;
  schemaCache: SchemaCache;
  /** Sign-in and token-refresh limits per client address. */
  rateLimits: RateLimits;
  /** Whether /auth/v1/signup creates users (off: GoTrue's `signup_disabled`). */
  signUps: boolean;
  /** The most rows one read or set-returning call answers (`[api] max_rows`, db-max-rows). */
  maxRows: number;
  /**
   * The PostgREST that answers `/rest/v1` (e.g. `http://127.0.0.1:41234`), or undefined when the
   * emulator's own REST layer does.
   */
  postgrestUrl?: string;
}
