import type { CardStatus } from '../../shared/core/lookup.js';
import type { ProfileEntry } from '../../shared/core/member-answers.js';
import { MAIN_PROFILE } from '../../shared/core/profiles.js';
import { out, print, printJson } from './output.js';
import type { CliConfig } from '../session/settings.js';
import { terminalSafe } from './terminal-safe.js';

/**
 * Where a profile sends visitors: its own URL, or for main and photo without one, the build's
 * setting (the CLI's config holds the same settings the site was built with).
 */
export function destinationOf(profile: ProfileEntry, config: CliConfig): string {
  if (profile.url !== null) return profile.url;
  return (config.targets as Record<string, string>)[profile.name] ?? config.mainUrl;
}

/** One line for a profile in text output. */
export function profileLine(profile: ProfileEntry, config: CliConfig, state = ''): string {
  const follows = profile.url === null ? ' (the build’s setting)' : '';
  return [
    out.bold(terminalSafe(profile.name)),
    terminalSafe(profile.label),
    `${terminalSafe(destinationOf(profile, config))}${follows}`,
    state,
  ]
    .filter(Boolean)
    .join('  ');
}

/**
 * Prints `namecard profile list`: every profile with its label, destination and whether the
 * entry in force or a scheduled one names it, under the card's name when the outputs name it;
 * with `json`, one JSON document. Shared by the program and the light path.
 */
export function showProfiles(
  profiles: ProfileEntry[],
  status: CardStatus,
  options: { json?: boolean },
  config: CliConfig,
): void {
  const inForce = status.active?.type ?? null;
  // Main is where visitors go between entries: its later segments are not "scheduled".
  const scheduled = new Set(
    status.timeline
      .slice(1)
      .map((segment) => String(segment.type))
      .filter((type) => type !== MAIN_PROFILE.type),
  );
  const stateOf = (name: string) =>
    name === inForce ? 'in force' : scheduled.has(name) ? 'scheduled' : null;
  if (options.json) {
    printJson(
      profiles.map((p) => ({
        name: p.name,
        label: p.label,
        url: destinationOf(p, config),
        own_url: p.url,
        state: stateOf(p.name),
      })),
    );
    return;
  }
  print(
    ...(config.cardShown === undefined ? [] : [`Card: ${config.cardShown}`]),
    ...profileTable(profiles, config, (p) => stateOf(p.name) ?? ''),
  );
}

/**
 * The profiles as aligned columns: name, label, destination (and a state), each column as wide
 * as its widest cell, two spaces between; the last column is not padded.
 */
export function profileTable(
  profiles: readonly ProfileEntry[],
  config: CliConfig,
  state: (profile: ProfileEntry) => string,
): string[] {
  const rows = profiles.map((p) => [
    terminalSafe(p.name),
    terminalSafe(p.label),
    `${terminalSafe(destinationOf(p, config))}${p.url === null ? ' (the build’s setting)' : ''}`,
    state(p),
  ]);
  const width = (column: number) => Math.max(0, ...rows.map((r) => [...r[column]!].length));
  const widths = [0, 1, 2].map(width);
  return rows.map((cells) => {
    const last = cells[3] ? 3 : 2;
    return cells
      .slice(0, last + 1)
      .map((cell, i) => {
        const padded = i === last ? cell : cell + ' '.repeat(widths[i]! - [...cell].length);
        return i === 0 ? out.bold(padded) : padded;
      })
      .join('  ');
  });
}
