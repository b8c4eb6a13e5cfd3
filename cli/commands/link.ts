import { Command } from 'commander';
import { linkSettings, siteUrlOption } from '../card-link.js';
import { print, printJson } from '../output.js';

export const linkCommand = new Command('link')
  .description("print the card's link, the address to put on the card")
  .addOption(siteUrlOption())
  .option('--json', 'print the result as one JSON document')
  .addHelpText(
    'after',
    `
The link is the site's Redirecting.. page: NAMECARD_SITE_URL (with NAMECARD_BASE_PATH) and go/.`,
  )
  .action((_options: object, command: Command) => {
    const { options, config } = linkSettings<{ json?: boolean }>(command);
    if (options.json) {
      printJson({ link: config.cardLink, site_url: config.siteUrl });
      return;
    }
    // Only the link, uncoloured, so that `$(namecard link)` is the link.
    print(config.cardLink);
  });
