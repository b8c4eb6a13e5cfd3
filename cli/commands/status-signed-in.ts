import { runStatus, type StatusOptions } from '../light/status-run.js';
import { resolveConfig } from '../session/settings.js';

// `namecard status` of a card named by its slug: loaded by the program (cli/main.ts) only for
// such a run, since it needs the session (conf, supabase-js), which `status` itself never loads
// (scripts/check-light-path.ts walks cli/commands/status.ts).

/**
 * `namecard status` on a card named by `--card`, NAMECARD_CARD or `card use`: read by its
 * members only, so with the session (`namecard_card_status`), then shown as the light path
 * shows the first card's; with NAMECARD_TOKEN, the token's card (`namecard_token_status`).
 * Without either, the light path's own run.
 *
 * @throws InputError (exit 2) for a bad `--tz` or card; SessionError, ApiError (exit 1)
 */
export async function runCardStatus(options: StatusOptions): Promise<void> {
  const config = resolveConfig(options);
  const card = config.card;
  if (card === undefined && config.token === undefined) {
    await runStatus(options);
    return;
  }
  const [format, { requireWriter }, { fetchCardStatus }, outlook, output] = await Promise.all([
    import('../../shared/core/format.js'),
    import('../session/writer.js'),
    import('../../shared/supabase/cards.js'),
    import('../terminal/outlook.js'),
    import('../terminal/output.js'),
  ]);
  const zone =
    options.tz === undefined ? format.localTimeZone() : format.checkTimeZone(options.tz, '--tz');
  const owner = await requireWriter(config);
  const status = await owner.run(({ client, transport }) =>
    // With a card token the token's client reads the token's card, whatever slug is given.
    transport.guard(() => fetchCardStatus(client, card ?? '')),
  );
  if (options.json) output.printJson(outlook.statusJson(status, config));
  else {
    output.print(
      ...outlook.timelineLines(status, config, zone),
      ...outlook.seriesLines(status, zone),
    );
  }
}
