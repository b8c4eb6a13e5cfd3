import { MAIN_PROFILE, readProfile } from '../../../shared/core/profiles.js';
import { formatWhen } from '../../../shared/core/format.js';
import type { Segment } from '../../../shared/core/timeline.js';
import { visitorsGet, type ProfileLabels } from '../../../shared/core/describe.js';
import { profileTone } from './profile-tone.js';

/**
 * The share of the bar every segment gets before the rest is shared out by duration, so that
 * a 30-minute break next to a stretch of months is still seen and labelled (the list under
 * the bar gives the exact times). With many segments it shrinks, so that time still counts.
 */
const MIN_SHARE = 0.18;

/**
 * Each segment's share of the bar: a fixed floor each, the rest in proportion to its share
 * of the time from now to the last change (the open-ended last segment gets the floor only).
 */
function shares(segments: readonly Segment[], now: number): number[] {
  const last = segments[segments.length - 1];
  if (!last || segments.length === 1) return segments.map(() => 1);
  const floor = Math.min(MIN_SHARE, 0.75 / segments.length);
  const span = Math.max(1, last.from - now);
  const rest = 1 - floor * segments.length;
  return segments.map((s) => floor + (s.to === null ? 0 : (rest * (s.to - s.from)) / span));
}

/** The picture in words, for screen readers: every segment with its end. (No "time" or "date" in it: a label with either would also answer the form fields' getByLabel.) */
export function timelineAlt(
  segments: readonly Segment[],
  now: number,
  timeZone: string,
  labels: ProfileLabels = {},
): string {
  const parts = segments.map((s) =>
    s.to === null
      ? `then ${visitorsGet(s.type, labels)} from then on`
      : `${visitorsGet(s.type, labels)} until ${formatWhen(s.to, now, timeZone)}`,
  );
  return `Visitors get, from now: ${parts.join(', ')}.`;
}

/** The word a segment of the bar shows: `Main`, `Photo`, or the label of an added profile. */
function shortLabel(type: Segment['type'], labels: ProfileLabels): string {
  const reading = readProfile(type);
  const own = Object.hasOwn(labels, type) ? labels[type] : undefined;
  if (type !== reading.profile.type) return own ?? type;
  // main and photo: their short word, unless the owner gave photo a label of its own.
  return own !== undefined && own !== reading.label && type !== MAIN_PROFILE.type
    ? own
    : reading.profile.short;
}

/**
 * The timeline as a bar from now (its left edge, marked) to the last change, one block per
 * segment coloured by profile and labelled with its row's label (`labels`, from the status); plain HTML and CSS, its widths set through the
 * style object (CSSOM), which the site's CSP allows.
 */
export function TimelineBar({
  segments,
  now,
  timeZone,
  labels = {},
}: {
  segments: readonly Segment[];
  now: number;
  timeZone: string;
  labels?: ProfileLabels;
}) {
  const widths = shares(segments, now);
  const last = segments[segments.length - 1];
  const end = segments.length > 1 && last ? formatWhen(last.from, now, timeZone) : null;
  return (
    <figure
      className="timeline"
      aria-label={timelineAlt(segments, now, timeZone, labels)}
      role="img"
    >
      <div className="timeline-bar" aria-hidden="true">
        {segments.map((segment, index) => {
          const { tone, style } = profileTone(segment.type);
          return (
            <div
              key={`${segment.from}-${segment.type}`}
              className={`timeline-segment profile-${tone}${segment.to === null && index > 0 ? ' open' : ''}`}
              style={{ ...style, flexGrow: widths[index], flexBasis: 0 }}
            >
              <span>{shortLabel(segment.type, labels)}</span>
            </div>
          );
        })}
      </div>
      <div className="timeline-axis" aria-hidden="true">
        <span className="timeline-now">now</span>
        {end && <span>{end}</span>}
      </div>
    </figure>
  );
}
