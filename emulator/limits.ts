import { readFile } from 'node:fs/promises';
import { parse as parseToml } from 'smol-toml';

/**
 * Per-address limits on POST /auth/v1/token, as GoTrue keeps them: password sign-ins
 * and token refreshes each have their own count per address per window. The
 * defaults are hosted Supabase's and the Supabase CLI's (`sign_in_sign_ups = 30` and
 * `token_refresh = 150` per 5 minutes per IP address).
 */
export interface RateLimits {
  /** Password sign-ins per address per window; default 30. */
  signIn: number;
  /** Refresh-token grants per address per window; default 150. */
  tokenRefresh: number;
  /**
   * Visits counted (POST /rest/v1/rpc/namecard_count_visit) per address per window;
   * default 600. The emulator's own limit: hosted Supabase has none for a function
   * call, so there anyone may call it as often as they like.
   */
  visits: number;
  /**
   * Tries to redeem an invitation code (POST /rest/v1/rpc/namecard_member_accept) per address
   * per window; default 30, as sign-ins. The emulator's own limit: hosted Supabase has none for
   * a function call (a code's 192 bits are what keeps guessing hopeless there).
   */
  invitations: number;
  /**
   * Refused card tokens (any request to /rest/v1 with the header x-namecard-token, by any
   * method, that the pre-request check refuses: an unknown, malformed, revoked or expired token)
   * per address per window; default 30, as sign-ins. A request whose token works is not counted,
   * whatever it answers, so a busy script is never limited by its own calls. The
   * emulator's own limit: on hosted Supabase a guess costs one indexed probe of the hash, and a
   * token's 192 bits keep guessing hopeless.
   */
  tokens: number;
  /** Window length in seconds; default 300. */
  windowSeconds: number;
  /**
   * A request header whose value is the client's address (for example
   * `X-Forwarded-For` behind a trusted proxy), as GoTrue's RATE_LIMIT_HEADER. For a list
   * (`client, proxy1, …`) the right-most address counts: the one the trusted proxy in
   * front appended, while everything left of it is whatever the client wrote (Express's
   * `trust proxy` with one hop). Unset: the connection's remote address, the only one a
   * client cannot choose.
   */
  header?: string;
}

/**
 * Hosted Supabase's limits (sign-ins and refreshes) and the emulator's own for visits,
 * invitation codes and refused card tokens.
 */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  signIn: 30,
  tokenRefresh: 150,
  visits: 600,
  invitations: 30,
  tokens: 30,
  windowSeconds: 300,
};

/** The Supabase CLI's project settings, read for the API's row cap (`[api] max_rows`). */
export const SUPABASE_CONFIG = new URL('../supabase/config.toml', import.meta.url);

/**
 * `[api] max_rows` of supabase/config.toml: the most rows one read or function call answers
 * (PostgREST's `db-max-rows`, which the emulator's own REST layer applies too).
 * @throws Error when the file cannot be read or holds no positive integer there.
 */
export async function configuredMaxRows(file: URL = SUPABASE_CONFIG): Promise<number> {
  const config = parseToml(await readFile(file, 'utf8')) as { api?: { max_rows?: unknown } };
  const maxRows = config.api?.max_rows;
  if (typeof maxRows !== 'number' || !Number.isInteger(maxRows) || maxRows < 1) {
    throw new Error(`\`[api] max_rows\` of ${file.pathname} must be a positive integer`);
  }
  return maxRows;
}
