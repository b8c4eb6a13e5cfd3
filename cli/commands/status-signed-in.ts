import { showStatus, statusOf, statusZone, type StatusOptions } from '../light/status-run.js';
import { resolveConfig } from '../session/settings.js';

// `namecard status` whose caller only the program can make: CI credentials (a sign-in for the
// run), or a stored session to refresh first. Loaded by the program (cli/main.ts) only for such
// a run, since it needs conf and supabase-js, which `status` itself never loads
// (scripts/check-light-path.ts walks cli/commands/status.ts). The caller only chooses the card:
// the status itself is the same public read as the light path's.

/**
 * `namecard status` with the program's caller: the caller's cards through its client, the
 * status of the run's card by the light path's rule (statusOf), shown as the light path shows it.
 *
 * @throws InputError for a bad `--tz` or card, CardConflictError (exit 2); SessionError,
 *   ApiError, NetworkError (exit 1)
 */
export async function runSignedInStatus(options: StatusOptions): Promise<void> {
  const zone = statusZone(options);
  const config = resolveConfig(options);
  const [{ findCaller }, { listCards }] = await Promise.all([
    import('../session/caller.js'),
    import('../../shared/supabase/cards.js'),
  ]);
  const caller = await findCaller(config);
  const readCards =
    caller &&
    (() => caller.run(({ client, transport }) => transport.guard(() => listCards(client))));
  const { createLightTransport } = await import('../transport/transport.js');
  const { fetch } = createLightTransport(config.supabaseUrl, config.timeoutMs);
  const shown = await statusOf(config, fetch, readCards);
  showStatus(shown.status, options, shown.config, zone);
}
