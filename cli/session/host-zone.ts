import { existsSync, readlinkSync } from 'node:fs';

// `namecard status` shows every time in this machine's zone. Asking Intl for the zone's name
// (`localTimeZone()`) starts Intl's date formatter, which costs 15–27 ms, more than anything
// else status does besides its one request. This finds the name where ICU itself (which Node's
// Date and Intl both use) looks for it on Linux and macOS, so that status can read its times
// with Date's local getters and never start Intl (shared/core/format.ts, setHostTimeZone).

/** An IANA zone name as the zone database spells its files: `UTC`, `Europe/Berlin`, `Etc/GMT+5`. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** The system's zone database, where every zone name is a file. */
const ZONEINFO = '/usr/share/zoneinfo';

/** The zone name `/etc/localtime` links to (`/usr/share/zoneinfo/Europe/Berlin`), if it is a link. */
function linkedZone(): string | undefined {
  try {
    const target = readlinkSync('/etc/localtime');
    const at = target.lastIndexOf('zoneinfo/');
    return at === -1 ? undefined : target.slice(at + 'zoneinfo/'.length);
  } catch {
    return undefined;
  }
}

/**
 * The IANA name of the zone this process's clock runs in, found as ICU finds it on Linux and
 * macOS: the `TZ` variable (without a leading `:`), else the zone file `/etc/localtime` links
 * to. Only a name that is a zone of the system's zone database counts; otherwise (Windows, a
 * POSIX rule such as `CET-1CEST` in `TZ`, a copied `/etc/localtime`) the answer is undefined,
 * and the caller asks Intl (`localTimeZone()`).
 *
 * @param env the environment (`TZ`)
 * @returns the zone's name as `TZ` or the link gives it, e.g. `Europe/Berlin`, or undefined
 */
export function hostTimeZone(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const name = env.TZ === undefined ? linkedZone() : env.TZ.replace(/^:/, '');
  if (!name || !ZONE_NAME.test(name)) return undefined;
  return existsSync(`${ZONEINFO}/${name}`) ? name : undefined;
}

/** A zone of the IANA database's regions, `Etc/…` or UTC: Temporal keeps such a name as given. */
const REGION_ZONE =
  /^(?:UTC|(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Etc|Europe|Indian|Pacific)\/.+)$/;

/**
 * The zone `set` reads a date and time in when they name none, and shows its times
 * in: this process's own zone by the name `TZ` or the system gives it ({@link hostTimeZone}),
 * when that is a region's zone or UTC (a name Temporal keeps as given, so that the program and
 * the light path name it alike); else undefined, and the caller asks Intl (`localTimeZone()`).
 */
export function hostEntryZone(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return entryZoneOf(hostTimeZone(env));
}

/**
 * {@link hostEntryZone} of a zone already found by {@link hostTimeZone}, so that a command that
 * needs both finds the zone once.
 *
 * @param host the process's zone as hostTimeZone found it, or undefined
 */
export function entryZoneOf(host: string | undefined): string | undefined {
  return host !== undefined && REGION_ZONE.test(host) ? host : undefined;
}
