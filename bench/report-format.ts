// How the report writes figures: ratios, milliseconds, sizes and table sizes.

/** A ratio: `1.23×`. */
export const x = (n: number) => `${n.toFixed(2)}×`;
/** Milliseconds: two decimals under 10 ms, one above. */
export const ms = (n: number) => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`;
/** Bytes, in KB of 1,024 from 1 KB on. */
export const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
/** A table size as a power of ten: `10^6`. */
export const rows = (n: number) => `10^${Math.round(Math.log10(n))}`;
/** A count over loads: `1`, or `1–2` when it varied. */
export const span = ({ min, max }: { min: number; max: number }) =>
  min === max ? String(min) : `${min}–${max}`;
