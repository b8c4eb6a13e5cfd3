import { commandOf } from '../grammar/commander.js';
import { channelLink } from '../../shared/core/card-link.js';
import { linkSettings } from '../session/card-link.js';
import { print, printJson } from '../terminal/output.js';

export const linkCommand = commandOf('link', (line) => {
  const { options, config } = linkSettings(line.options);
  const link = options.nfc ? channelLink(config.cardLink, 'nfc') : config.cardLink;
  if (options.json) {
    printJson({ link, site_url: config.siteUrl });
    return;
  }
  // Only the link, uncoloured, so that `$(namecard link)` is the link.
  print(link);
});
