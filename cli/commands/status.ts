import { runStatus, type StatusOptions } from '../light/status-run.js';
import { commandOf } from '../grammar/commander.js';

/** How the program runs a status naming a card (cli/commands/status-card.ts, set by cli/main.ts). */
let cardStatus: ((options: StatusOptions) => Promise<void>) | undefined;

/**
 * Sets how a status naming a card runs: the program gives it, so that this module (what
 * `status` under commander loads) reaches neither conf nor supabase-js.
 */
export function setCardStatus(run: (options: StatusOptions) => Promise<void>): void {
  cardStatus = run;
}

export const statusCommand = commandOf('status', async ({ options }) => {
  if (await runStatus(options, { orProgram: true })) return;
  if (!cardStatus) throw new Error('no way to read a card by its slug');
  await cardStatus(options);
});
