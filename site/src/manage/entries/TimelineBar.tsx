import { formatWhen } from '../../../../shared/core/format.js';
import type { Segment } from '../../../../shared/core/timeline.js';
import { visitorsGet, type ProfileLabels } from '../../../../shared/core/describe.js';
import { profileTone } from './profile-tone.js';

/**
 * Each closed segment's share of the shown window, from now (its left edge) to the last change
 * (its right edge): its duration over the window's, so the picture is to scale. The open-ended
 * last segment lies after the window and gets no share; a timeline of one segment (nothing
 * planned) fills the window.
 */
export function shares(segments: readonly Segment[], now: number): number[] {
  const last = segments[segments.length - 1];
  if (!last || segments.length === 1) return segments.map(() => 1);
  const span = Math.max(1, last.from - now);
  return segments.map((s) => (s.to === null ? 0 : (s.to - Math.max(s.from, now)) / span));
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

/**
 * The timeline as a bar to scale: the window from now (its left edge, marked and labelled) to
 * the last change (its right edge, labelled with that time), one block per segment coloured by
 * profile, its width its share of the window; the open-ended rest (always main) is a faded
 * block after the window's end. The blocks carry no text (a short break would cut it): a
 * legend names the colours in the words the list under it uses (`visitorsGet`: each row's label
 * from the status's `labels`, `the main site` for main), its swatches short bars like the blocks. Plain HTML and
 * CSS, the widths set through the style object (CSSOM), which the site's CSP allows.
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
  const planned = segments.length > 1 && last ? last : null;
  const scaled = planned ? segments.slice(0, -1) : segments;
  const types = [...new Set(segments.map((s) => s.type))];
  return (
    <figure
      className="timeline"
      aria-label={timelineAlt(segments, now, timeZone, labels)}
      role="img"
    >
      <div className="timeline-track" aria-hidden="true">
        <div className="timeline-bar" data-testid="timeline-window">
          {scaled.map((segment, index) => {
            const { tone, style } = profileTone(segment.type);
            return (
              <div
                key={`${segment.from}-${segment.type}`}
                className={`timeline-segment profile-${tone}`}
                style={{ ...style, flexGrow: widths[index], flexBasis: 0 }}
              />
            );
          })}
        </div>
        {planned && (
          <div
            className={`timeline-rest profile-${profileTone(planned.type).tone}`}
            style={profileTone(planned.type).style}
            data-testid="timeline-rest"
          />
        )}
        <div className="timeline-axis">
          <span className="timeline-now">now</span>
          <span>{planned ? formatWhen(planned.from, now, timeZone) : 'nothing planned'}</span>
        </div>
      </div>
      <ul className="timeline-legend" aria-hidden="true">
        {types.map((type) => {
          const { tone, style } = profileTone(type);
          return (
            <li key={type} className={`profile-dot-${tone}`} style={style}>
              {visitorsGet(type, labels)}
            </li>
          );
        })}
      </ul>
    </figure>
  );
}
