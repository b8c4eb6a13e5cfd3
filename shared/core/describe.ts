import type { ApiError, RefusalCode } from './errors.js';
import { formatRelative, formatWhen } from './format.js';
import type { EntryState, Segment } from './timeline.js';
import {
  MAIN_PROFILE,
  profileLabel,
  readProfile,
  type ProfileLabels,
  type StoredType,
} from './profiles.js';

// What visitors get, in the owner's words, for the CLI and the manage page alike. Intl only
// (through format.ts), so `namecard status` and /manage can use it without Temporal. Times are
// read at a glance (`today 18:00`, `Wed 09:00`); the zone is named once per screen by the face
// (format.ts's zoneHeader).

export type { ProfileLabels };

/**
 * What visitors get for a profile type, or for none: `the main site` for main or none, else the
 * profile's display name (`profileLabel`: its row's label, else the built-in one, else the
 * name as it is stored).
 *
 * @param type a stored type, or null/undefined when nothing is active
 * @param labels the profiles' labels from the server ({} when unknown)
 */
export function visitorsGet(
  type: StoredType | null | undefined,
  labels: ProfileLabels = {},
): string {
  if (type == null || type === MAIN_PROFILE.type) return readProfile(type).visitorsGet;
  return profileLabel(type, labels);
}

/**
 * The segment visitors get now, in words: `Photographer until today 18:00 (in 2 h 5 min)`,
 * or `the main site` when it is open-ended.
 *
 * @param segment the timeline's first segment
 * @param now epoch ms (the server's now)
 * @param timeZone IANA time zone of the times shown
 * @param labels the profiles' labels from the server ({@link visitorsGet})
 */
export function describeNow(
  segment: Segment,
  now: number,
  timeZone: string,
  labels: ProfileLabels = {},
): string {
  const label = visitorsGet(segment.type, labels);
  if (segment.to === null) return label;
  return `${label} until ${formatWhen(segment.to, now, timeZone)} (${formatRelative(segment.to, now)})`;
}

/**
 * What follows now, one sentence per coming segment, in order: `Then the main site from today
 * 10:07`, `Then Photographer again from Wed 09:00 (in 2 days) until Wed 18:00`. "again" marks a
 * profile other than main that visitors have had earlier in the timeline; from the second
 * change on, each start has a hint of how far off it is. When the timeline has more segments than
 * `max`, or the server's answer was capped (its last segment has an end), the last sentence is
 * `And more changes after that`.
 *
 * @param timeline segments from now on, as the server or `timeline()` answers them
 * @param now epoch ms (the server's now)
 * @param timeZone IANA time zone of the times shown
 * @param max how many coming segments at most (default 5)
 * @param labels the profiles' labels from the server ({@link visitorsGet})
 * @example describeFollowing([{ type: 'photo', from: 0, to: 60000 }, { type: 'main', from: 60000, to: null }], 0, 'UTC')
 * // → ['Then the main site from today 00:01']
 */
export function describeFollowing(
  timeline: readonly Segment[],
  now: number,
  timeZone: string,
  max = 5,
  labels: ProfileLabels = {},
): string[] {
  const lines: string[] = [];
  timeline.forEach((segment, index) => {
    if (index === 0 || index > max) return;
    const again =
      segment.type !== MAIN_PROFILE.type &&
      timeline.slice(0, index).some((s) => s.type === segment.type)
        ? ' again'
        : '';
    const from = formatWhen(segment.from, now, timeZone);
    // The first change's moment has its hint on the "now" line already (its end).
    const soon = index > 1 ? ` (${formatRelative(segment.from, now)})` : '';
    const until = segment.to === null ? '' : ` until ${formatWhen(segment.to, now, timeZone)}`;
    lines.push(`Then ${visitorsGet(segment.type, labels)}${again} from ${from}${soon}${until}`);
  });
  const last = timeline[timeline.length - 1];
  if (timeline.length - 1 > max || (last && last.to !== null))
    lines.push('And more changes after that');
  return lines;
}

/**
 * An entry's state in plain words, the same on both faces: `on now, until today 18:00`,
 * `scheduled from Wed 09:00`, `comes back at today 10:30`, `never shown: a newer entry covers
 * its time`, `ended`, `ended early at today 09:12`, `cancelled at today 09:12`.
 *
 * @param state from `entryStates`
 * @param now epoch ms (the server's now)
 * @param timeZone IANA time zone of the times shown
 */
export function describeState(state: EntryState, now: number, timeZone: string): string {
  const when = (ms: number) => formatWhen(ms, now, timeZone);
  switch (state.state) {
    case 'on-now':
      return `on now, until ${when(state.until)}`;
    case 'scheduled':
      return `scheduled from ${when(state.from)}`;
    case 'comes-back':
      return `comes back at ${when(state.at)}`;
    case 'never-shown':
      return 'never shown: a newer entry covers its time';
    case 'ended-early':
      return `ended early at ${when(state.at)}`;
    case 'cancelled':
      return `cancelled at ${when(state.at)}`;
    default:
      return 'ended';
  }
}

/**
 * The server's refusals in the owner's words, the same on both faces (each face adds its own
 * next step). `null` keeps the server's own words, which name the entry (`namecard_cancel`).
 */
export const REFUSAL_WORDS = {
  not_owner: 'this account may not change the card',
  entry_refused:
    'the server refused the entry: its start must be before its end, both from 1970 to the end of 2199',
  no_such_entry: null,
  entry_stopped: null,
} as const satisfies Readonly<Record<RefusalCode, string | null>>;

/**
 * A refusal in the owner's words: {@link REFUSAL_WORDS}, or the server's message where the
 * words are the server's.
 *
 * @param code the refusal, from `refusalOf`
 * @param error the server's answer
 */
export function describeRefusal(code: RefusalCode, error: ApiError): string {
  return REFUSAL_WORDS[code] ?? error.message;
}
