// What a mistyped name probably meant: a command (`ordres`), an action, a column (`recever.phone`).

/** Edits at most between a typo and the name meant: more, and the guess would mislead. */
const MAX_EDITS = 2;

/**
 * ` (did you mean 'orders'?)`, or ` (receiver.phone?)` when `short`, for the candidate closest to
 * `given` (any case) when it is within two edits; '' otherwise.
 */
export function didYouMean(given: string, candidates: readonly string[], form: 'long' | 'short' = 'long'): string {
  // Far longer than any name: no typo of one, and not worth the comparison.
  if (given.length > 100) return '';
  let best: string | undefined;
  let bestDistance = MAX_EDITS + 1;
  for (const candidate of candidates) {
    const distance = editDistance(given.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  if (best === undefined) return '';
  return form === 'short' ? ` (${best}?)` : ` (did you mean '${best}'?)`;
}

/**
 * Edit distance (insertions, deletions, substitutions). The command line's own, not the lookup's
 * (functions/lookup/name-match.ts): importing that from here would split it out of the lookup's
 * chunk, and every browser page that can load the lookup would load one more file.
 */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length] ?? 0;
}
