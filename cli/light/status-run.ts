import { checkTimeZone, localTimeZone, setHostTimeZone } from '../../shared/core/format.js';
import { hostTimeZone } from '../session/host-zone.js';
import { print, printJson } from '../terminal/output.js';
import { readStatus, seriesLines, statusJson, timelineLines } from '../terminal/outlook.js';
import { resolveConfig } from '../session/settings.js';
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
 * @param light.orProgram on the light path: a run naming a card is left to the program
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
  // A card named by NAMECARD_CARD or `namecard card use` is read by its members only, with the
  // session: the program's (cli/commands/status.ts), as a line with `--card` is.
  // So is a run with a card token (cli/session/card-token.ts).
  if ((config.card !== undefined || config.token !== undefined) && light.orProgram) return false;
  const transport = createLightTransport(config.supabaseUrl, config.timeoutMs);
  // Not through `transport.guard`: the light fetch throws its typed error itself outside a
  // guard and `fetchStatus` passes it on as it is, so the error is the same, and the guard's
  // AsyncLocalStorage (on Node 20 it turns on promise hooks for every later promise and
  // callback) is not started for status's one request.
  const status = await readStatus(config, transport.fetch);
  if (options.json) printJson(statusJson(status, config));
  else print(...timelineLines(status, config, zone), ...seriesLines(status, zone));
  return true;
}
