import { localTimeZone } from '../core/format.js';
import * as rules from '../core/entry-rules.js';
import type { EntryFieldNames, EntryInput, EntryPlan, ZoneRules } from '../core/entry-rules.js';
import { parseTimeZone, toEpochMs } from './time.js';

// The rules of a new entry (shared/core/entry-rules.ts) with Temporal's time zones: any IANA
// zone, for the CLI's program and the manage page. The CLI's light path gives the same rules
// Date's local clock instead (cli/light/caller-light.ts).

export {
  CLI_FIELD_NAMES,
  MAX_DURATION_MS,
  checkEndForm,
  parseDurationMs,
  parseProfile,
} from '../core/entry-rules.js';
export type {
  EntryFieldNames,
  EntrySpan,
  EntryInput,
  EntryPlan,
  SetRequest,
  ZoneRules,
} from '../core/entry-rules.js';

/** Temporal's zones: any IANA zone, checked and canonicalised; the machine's by default. */
export const temporalZones: ZoneRules = { parseTimeZone, toEpochMs, localTimeZone };

/**
 * A `set` line's fields read once, in any IANA zone: shared/core/entry-rules.ts's
 * `readSetRequest`.
 *
 * @param now epoch ms
 * @throws InputError naming the first field that is wrong
 */
export function readSetRequest(
  input: Parameters<typeof rules.readSetRequest>[1],
  now: number,
  names?: EntryFieldNames,
): rules.SetRequest {
  return rules.readSetRequest(temporalZones, input, now, names);
}

/**
 * The entry `input` asks for, by every rule of a new entry, in any IANA zone: see
 * shared/core/entry-rules.ts's `planEntry`.
 *
 * @param now epoch ms
 * @throws InputError naming the field and the expected form
 */
export function planEntry(input: EntryInput, now: number, names?: EntryFieldNames): EntryPlan {
  return rules.planEntry(temporalZones, input, now, names);
}

/**
 * The entry of a request read by `readSetRequest` and completed, its profile checked: see
 * shared/core/entry-rules.ts's `planRequest`.
 *
 * @param type the profile's name, checked
 * @param now epoch ms
 * @throws InputError naming the field and the expected form
 */
export function planRequest(
  request: rules.SetRequest,
  type: string,
  now: number,
  names?: EntryFieldNames,
): EntryPlan {
  return rules.planRequest(temporalZones, request, type, now, names);
}

/** When an entry starts and ends, in `timeZone`: shared/core/entry-rules.ts's `planSpan`. */
export function planSpan(
  input: Pick<EntryInput, 'date' | 'time' | 'for' | 'from'>,
  timeZone: string,
  now: number,
  names?: EntryFieldNames,
): ReturnType<typeof rules.planSpan> {
  return rules.planSpan(temporalZones, input, timeZone, now, names);
}

/** An entry's end, in the future, in `timeZone`: shared/core/entry-rules.ts's `planEnd`. */
export function planEnd(
  input: Pick<EntryInput, 'date' | 'time' | 'for'>,
  stampStart: number | null,
  timeZone: string,
  now: number,
  names?: EntryFieldNames,
): number {
  return rules.planEnd(temporalZones, input, stampStart, timeZone, now, names);
}
