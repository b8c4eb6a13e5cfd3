import { checkTimeZone, localTimeZone } from '../shared/core/format.js';
import { print, printJson } from './output.js';
import { readStatus, statusJson, timelineLines } from './outlook.js';
import { resolveConfig } from './settings.js';
import { createLightTransport } from './transport.js';

/** The options of `namecard status` (global ones included), as typed. */
export interface StatusOptions {
  json?: boolean;
  /** `--tz <zone>`: the IANA zone the times are shown in (default: this machine's). */
  tz?: string;
  apiUrl?: string;
  timeout?: string;
}

/**
 * `namecard status`: what visitors get now and the coming changes, read with one GET of the
 * view `namecard_status` with the anon key (no sign-in). The server's clock decides; no
 * supabase-js, no Temporal. A plain function, not a commander action, so the entry point can
 * run it without loading commander (cli/status-args.ts); the commander command calls it too.
 *
 * @throws NetworkError, TimeoutError, ApiError (exit 1); InputError for a bad flag (exit 2)
 */
export async function runStatus(options: StatusOptions): Promise<void> {
  const zone = options.tz === undefined ? localTimeZone() : checkTimeZone(options.tz, '--tz');
  const config = resolveConfig(options);
  const transport = createLightTransport(config.supabaseUrl, config.timeoutMs);
  const status = await transport.guard(() => readStatus(config, transport.fetch));
  if (options.json) printJson(statusJson(status, config));
  else print(...timelineLines(status, config, zone));
}
