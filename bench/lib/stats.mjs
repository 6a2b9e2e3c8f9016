/** Small statistics helpers shared by the benchmarks. */

/** Value at quantile `q` (0..1) of `values`, by the nearest-rank method. */
export function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

export const median = (values) => quantile(values, 0.5);

/** `values` rotated left by `by` places: the block order of interleaved runs. */
export function rotate(values, by) {
  const shift = by % values.length;
  return [...values.slice(shift), ...values.slice(0, shift)];
}
