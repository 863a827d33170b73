/** Small statistics used by the benchmark: median and exact percentiles of a sample. */

export function median(values: number[]): number {
  return percentile(values, 50);
}

/** The p-th percentile (0–100) by linear interpolation between closest ranks; NaN when empty. */
export function percentile(values: number[], p: number): number {
  // NaN is left out; ±Infinity stays and ranks at either end.
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return lo === hi ? sorted[lo]! : sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

export const round = (v: number, digits = 0): number => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};
