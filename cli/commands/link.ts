import { Command } from 'commander';
import { channelLink } from '../../shared/core/card-link.js';
import { linkSettings, siteUrlOption } from '../session/card-link.js';
import { print, printJson } from '../terminal/output.js';

export const linkCommand = new Command('link')
  .description("print the card's link, the address to put on the card")
  .addOption(siteUrlOption())
  .option('--nfc', 'the link to write on an NFC tag (?via=nfc), so its visits count as NFC')
  .option('--json', 'print the result as one JSON document')
  .addHelpText(
    'after',
    `
The link is the site's Redirecting.. page: NAMECARD_SITE_URL (with NAMECARD_BASE_PATH) and go/.
\`namecard qr\` encodes it with ?via=qr, and --nfc prints it with ?via=nfc, so that
\`namecard stats\` tells the channels apart.`,
  )
  .action((_options: object, command: Command) => {
    const { options, config } = linkSettings<{ json?: boolean; nfc?: boolean }>(command);
    const link = options.nfc ? channelLink(config.cardLink, 'nfc') : config.cardLink;
    if (options.json) {
      printJson({ link, site_url: config.siteUrl });
      return;
    }
    // Only the link, uncoloured, so that `$(namecard link)` is the link.
    print(link);
  });
