import { cardLinkOf } from '../../shared/core/card-link.js';
import { FIRST_CARD_SLUG } from '../../shared/core/cards.js';
import { resolveConfig, type CliConfig, type SettingFlags } from './settings.js';

/**
 * The settings of a command that shows the card link (`link`, `qr`), with its `--site-url`;
 * `cardLink` is the run's card's own link (`/go/?c=<slug>`; the first card's stays `/go/`).
 * No request: a slug's link is its slug's, whether or not it is one of the user's cards.
 *
 * @param options the line's options (global ones included)
 * @throws InputError naming `--site-url`; ConfigError naming a bad setting
 */
export function linkSettings<T extends SettingFlags>(
  options: T,
): { options: T; config: CliConfig } {
  const config = resolveConfig(options);
  const { card } = config;
  if (card === undefined) return { options, config };
  const cardLink = cardLinkOf(config.cardLink, { slug: card, first: card === FIRST_CARD_SLUG });
  return { options, config: { ...config, cardLink } };
}
