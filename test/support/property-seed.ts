/**
 * The seed of one fast-check run: `FC_SEED` when set, to replay a run, else a new one. `fc.assert`
 * prints it when its property fails; an `expect` made after the run (a counter, a side effect)
 * passes `note` as its message, so that its failure names the seed too.
 *
 * @example
 * ```ts
 * const { seed, note } = propertySeed();
 * fc.assert(property, { numRuns: 150, seed });
 * expect(refused, note).toBeGreaterThan(75);
 * ```
 */
export function propertySeed(): { readonly seed: number; readonly note: string } {
  const replay = process.env['FC_SEED'];
  // fast-check's own default, when no seed is given.
  const seed = replay !== undefined && replay !== '' ? Number(replay) : (Date.now() ^ (Math.random() * 0x100000000)) | 0;
  return { seed, note: `fast-check seed ${seed} (FC_SEED=${seed} replays this run)` };
}
