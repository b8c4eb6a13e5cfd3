// Order statistics for timing samples. Every figure the benchmark reports is a median
// (or a percentile) rather than a mean, because the machine is shared and noisy.

/** The q-quantile (0..1) of `values` by linear interpolation; NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] ?? Number.NaN;
  const b = sorted[hi] ?? Number.NaN;
  return a + (b - a) * (pos - lo);
}

/** The median of `values`; NaN for no values. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** p50 and p99 of one batch of samples, in the samples' unit. */
export interface Percentiles {
  p50: number;
  p99: number;
}

/** p50 and p99 of `values`. */
export function percentiles(values: readonly number[]): Percentiles {
  return { p50: quantile(values, 0.5), p99: quantile(values, 0.99) };
}

/** Per-field medians over repeated rounds, e.g. the median p50 and the median p99. */
export function medianOfRounds(rounds: readonly Percentiles[]): Percentiles {
  return { p50: median(rounds.map((r) => r.p50)), p99: median(rounds.map((r) => r.p99)) };
}

/** Rounds to `digits` decimals, for JSON and tables (NaN stays NaN). */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Milliseconds elapsed since `start` (a `process.hrtime.bigint()` reading). */
export function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}
