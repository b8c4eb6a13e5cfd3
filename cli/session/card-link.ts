import { resolveConfig, type CliConfig, type SettingFlags } from './settings.js';

/**
 * The settings of a command that shows the card link (`link`, `qr`), with its `--site-url`.
 *
 * @param options the line's options (global ones included)
 * @throws InputError naming `--site-url`; ConfigError naming a bad setting
 */
export function linkSettings<T extends SettingFlags>(
  options: T,
): { options: T; config: CliConfig } {
  return { options, config: resolveConfig(options) };
}
