/** Small statistics helpers shared by the benchmarks. */

/** Value at quantile `q` (0..1) of `values`, by the nearest-rank method. */
export function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

export const median = (values) => quantile(values, 0.5);

/**
 * `values` in a random order (Fisher-Yates): the order of one round of variants called in turn.
 * Rotating a fixed order instead gives each variant the same predecessor in almost every round,
 * and what ran just before a call (its footprint in the caches) moves that call's time by several
 * percent: the bias would be the variant's.
 */
export function shuffled(values) {
  const order = [...values];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** `values` rotated left by `by` places: the block order of interleaved runs. */
export function rotate(values, by) {
  const shift = by % values.length;
  return [...values.slice(shift), ...values.slice(0, shift)];
}

/** The spread of one figure over process runs: `{ min, median, max, runs }`. */
export function spread(values) {
  const finite = values.filter(Number.isFinite);
  return { min: Math.min(...finite), median: median(finite), max: Math.max(...finite), runs: finite.length };
}

/**
 * The verdict on a figure's spread against its budget (`at most` by default, `at least` with
 * `atLeast`), judged on the median: 'over' when the median is past the budget, 'noise' when the
 * median meets it but the range crosses it (the worst run is past it), 'ok' when every run meets it.
 */
export function verdictOf({ min, median: middle, max }, budget, { atLeast = false } = {}) {
  const [typical, worst, limit] = atLeast ? [-middle, -min, -budget] : [middle, max, budget];
  if (typical > limit) return 'over';
  if (worst > limit) return 'noise';
  return 'ok';
}
