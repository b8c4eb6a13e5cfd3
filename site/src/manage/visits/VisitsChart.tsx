import type { VisitChannel, VisitSummary } from '../../../../shared/calendar/visits.js';

/** The channels in stacking order (bottom first), with the words the page uses for them. */
export const CHANNELS: { via: VisitChannel; label: string }[] = [
  { via: 'qr', label: 'QR code' },
  { via: 'nfc', label: 'NFC tag' },
  { via: 'link', label: 'link' },
];

const WIDTH = 300;
const HEIGHT = 110;
const TOP = 14;
const BOTTOM = 16;

/**
 * Bars per day, each split by channel (QR code, NFC tag, link, told apart by colour and by the
 * legend), today's bar outlined and labelled. Plain SVG: no chart library. The picture is
 * described by its title; the numbers are in the table next to it.
 */
export function VisitsChart({ summary }: { summary: VisitSummary }) {
  const days = summary.days;
  const max = Math.max(1, ...days.map((d) => d.total));
  const slot = WIDTH / days.length;
  const barWidth = Math.max(2, slot * 0.7);
  const plot = HEIGHT - TOP - BOTTOM;
  const scale = (n: number) => (n / max) * plot;
  const todayIndex = days.length - 1;
  const title = `Visits per day over the last ${days.length} days, by channel: ${summary.total} in all, today ${days[todayIndex]!.total}.`;
  return (
    <svg
      className="visits-chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby="visits-chart-title"
      data-testid="visits-chart"
    >
      <title id="visits-chart-title">{title}</title>
      <line className="axis" x1={0} x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} />
      {days.map((d, i) => {
        const x = i * slot + (slot - barWidth) / 2;
        let y = HEIGHT - BOTTOM;
        return (
          <g key={d.day} data-day={d.day} data-total={d.total}>
            {CHANNELS.map(({ via }) => {
              const h = scale(d.by_via[via]);
              y -= h;
              return h > 0 ? (
                <rect key={via} className={`bar ${via}`} x={x} y={y} width={barWidth} height={h} />
              ) : null;
            })}
            {i === todayIndex && (
              <>
                <rect
                  className="today"
                  data-testid="visits-today"
                  x={x - 2}
                  y={TOP - 2}
                  width={barWidth + 4}
                  height={plot + 4}
                />
                <text className="today-label" x={x + barWidth / 2} y={HEIGHT - 5} textAnchor="end">
                  today
                </text>
              </>
            )}
          </g>
        );
      })}
      <text className="max-label" x={2} y={TOP - 3}>
        {max}
      </text>
    </svg>
  );
}
