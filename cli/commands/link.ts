import { commandOf } from '../grammar/commander.js';
import { channelLink } from '../../shared/core/card-link.js';
import { linkSettings } from '../session/card-link.js';
import { err, print, printJson } from '../terminal/output.js';

export const linkCommand = commandOf('link', async (line) => {
  const { options, config, card } = await linkSettings(line.options);
  const link = options.nfc ? channelLink(config.cardLink, 'nfc') : config.cardLink;
  if (options.json) {
    printJson({
      ...(config.cardShown === undefined ? {} : { card }),
      link,
      site_url: config.siteUrl,
    });
    return;
  }
  // Only the link, uncoloured, so that `$(namecard link)` is the link; which card it is goes to
  // stderr when the caller has more than one card.
  if (config.cardShown !== undefined) process.stderr.write(`${err.dim(`Card: ${card}`)}\n`);
  print(link);
});
