// How big the heavy runs are. `npm test` runs them at a size that fits its time on a 2-core
// machine; `npm run test:full` (vitest's `--mode full`, vitest.config.ts) runs them at full size:
// the fault suite's 2,000 calls, 500 orders across Redis instances, every property's full run count.
// What each test asserts is the same at both sizes.

/** Whether this is the full-size run (`npm run test:full`). */
export const FULL = process.env['DELIVERY_SDK_TEST_SIZE'] === 'full';

/** `quick` in `npm test`, `full` in `npm run test:full`. */
export const sized = (quick: number, full: number): number => (FULL ? full : quick);

/** A property's run count: `full` in `npm run test:full`, a quarter of it (10 at least) in `npm test`. */
export const runs = (full: number): number => sized(Math.max(10, Math.ceil(full / 4)), full);

/**
 * Subsets of `items` (rules to skip, say): all 2^n of them in `npm run test:full`; in `npm test`
 * the edges, where each item's effect shows alone: none, all, each one alone, and all but each one.
 */
export function subsets<T>(items: readonly T[]): T[][] {
  if (FULL) return Array.from({ length: 2 ** items.length }, (_, mask) => items.filter((_, bit) => (mask >> bit) & 1));
  return [[], [...items], ...items.map((item) => [item]), ...items.map((item) => items.filter((other) => other !== item))];
}
