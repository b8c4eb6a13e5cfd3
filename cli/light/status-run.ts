import { ApiError } from '../../shared/core/errors.js';
import { checkTimeZone, localTimeZone, setHostTimeZone } from '../../shared/core/format.js';
import { parseStatus, type CardStatus } from '../../shared/core/lookup.js';
import { refuseAccessToken, storedAccessToken } from '../session/access-token.js';
import { hostTimeZone } from '../session/host-zone.js';
import { print, printJson } from '../terminal/output.js';
import { readStatus, seriesLines, statusJson, timelineLines } from '../terminal/outlook.js';
import { resolveConfig, type CliConfig } from '../session/settings.js';
import { ownerRest } from '../transport/light-rest.js';
import { createLightTransport } from '../transport/transport.js';

/** The options of `namecard status` (global ones included), as typed. */
export interface StatusOptions {
  json?: boolean;
  /** `--tz <zone>`: the IANA zone the times are shown in (default: this machine's). */
  tz?: string;
  apiUrl?: string;
  timeout?: string;
}

/**
 * `namecard status`: what visitors get now and the coming changes (then each weekly series in
 * one line with its next start), read with one GET of the
 * view `namecard_status` with the anon key (no sign-in). The server's clock decides; no
 * supabase-js, no Temporal. A plain function, not a commander action, so the entry point can
 * run it without loading commander (cli/light/light-lines.ts); the commander command calls it too.
 *
 * A card named by NAMECARD_CARD or `namecard card use` is read by its members only: on the
 * light path with the stored access token, one POST ({@link readCardStatus}).
 *
 * @param light.orProgram on the light path: a card's run the light path cannot make (no usable
 *   stored session, a refusal) is left to the program
 * @returns false when left to the program (nothing printed); true when it ran
 * @throws NetworkError, TimeoutError, ApiError (exit 1); InputError for a bad flag (exit 2)
 */
export async function runStatus(
  options: StatusOptions,
  light: { orProgram?: boolean } = {},
): Promise<boolean> {
  // Without --tz: the machine's zone, by name without Intl when it can be found so; its times
  // are then read with Date's local getters (host-zone.ts says why).
  const host = options.tz === undefined ? hostTimeZone() : undefined;
  setHostTimeZone(host);
  const zone =
    options.tz === undefined ? (host ?? localTimeZone()) : checkTimeZone(options.tz, '--tz');
  const config = resolveConfig(options);
  // A run with a card token is the program's (cli/session/card-token.ts): the token wins over
  // a stored session.
  if (config.token !== undefined && light.orProgram) return false;
  const transport = createLightTransport(config.supabaseUrl, config.timeoutMs);
  let status: CardStatus | undefined;
  if (config.card !== undefined && light.orProgram) {
    status = await readCardStatus(config, config.card, transport.fetch);
    if (status === undefined) return false;
  } else {
    // Not through `transport.guard`: the light fetch throws its typed error itself outside a
    // guard and `fetchStatus` passes it on as it is, so the error is the same, and the guard's
    // AsyncLocalStorage (on Node 20 it turns on promise hooks for every later promise and
    // callback) is not started for status's one request.
    status = await readStatus(config, transport.fetch);
  }
  if (options.json) printJson(statusJson(status, config));
  else print(...timelineLines(status, config, zone), ...seriesLines(status, zone));
  return true;
}

/**
 * The status of the card `card` (named by NAMECARD_CARD or `namecard card use`; a line with
 * `--card` is the program's), read by its members only: one POST of `namecard_card_status`
 * with the stored access token, as the program's `fetchCardStatus` sends it.
 *
 * @returns undefined when the program must run it instead: no usable stored session (CI
 *   credentials, a refresh due), or any refusal by the API (a refused token is recorded so the
 *   program refreshes; "no such card" and the rest get the program's words)
 * @throws NetworkError, TimeoutError (exit 1), as the first card's read does
 */
async function readCardStatus(
  config: CliConfig,
  card: string,
  fetch: ReturnType<typeof createLightTransport>['fetch'],
): Promise<CardStatus | undefined> {
  const token = storedAccessToken(config);
  if (token === undefined) return undefined;
  try {
    const { data } = await ownerRest(config, token, fetch).rpc('namecard_card_status', { card });
    return parseStatus(Array.isArray(data) && data.length === 1 ? data[0] : data);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401) refuseAccessToken(token);
    return undefined;
  }
}
