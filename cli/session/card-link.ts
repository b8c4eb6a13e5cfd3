import { Option, type Command } from 'commander';
import { resolveConfig, type CliConfig, type SettingFlags } from './settings.js';

/** `--site-url <url>`, the flag of the commands that show the card link (`link`, `qr`). */
export function siteUrlOption(): Option {
  return new Option(
    '--site-url <url>',
    'where the site is hosted (overrides NAMECARD_SITE_URL; default: http://127.0.0.1:4173/)',
  );
}

/**
 * The options of a command that shows the card link, and the settings with its `--site-url`.
 *
 * @throws InputError naming `--site-url`; ConfigError naming a bad setting
 */
export function linkSettings<T extends object>(
  command: Command,
): { options: T & SettingFlags; config: CliConfig } {
  const options = command.optsWithGlobals<T & SettingFlags>();
  return { options, config: resolveConfig(options) };
}
