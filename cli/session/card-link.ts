import { cardLinkOf } from '../../shared/core/card-link.js';
import { resolveConfig, type CliConfig, type SettingFlags } from './settings.js';

/**
 * The settings of a command that shows the run's card's link (`link`, `qr`), with its
 * `--site-url`; `cardLink` is the run's card's own link (`/go/?c=<slug>`; main's stays the bare
 * `/go/`). A slug's link is its slug's, whether or not it is one of the user's cards: a card
 * that is named costs no request; otherwise the caller, when there is one, chooses the card by
 * its cards (cli/session/cards.ts).
 *
 * @param options the line's options (global ones included)
 * @returns the options, the settings (naming the card in outputs when they should), the slug
 * @throws InputError naming `--site-url` or the card, CardConflictError (exit 2); ConfigError
 *   naming a bad setting; SessionError, ApiError, NetworkError reading the caller's cards
 */
export async function linkSettings<T extends SettingFlags>(
  options: T,
): Promise<{ options: T; config: CliConfig; card: string }> {
  const settings = resolveConfig(options);
  const { onRunCardOrSignedOut } = await import('./cards.js');
  const { card, config } = await onRunCardOrSignedOut(settings);
  const cardLink = cardLinkOf(config.cardLink, card.slug);
  return { options, config: { ...config, cardLink }, card: card.slug };
}
