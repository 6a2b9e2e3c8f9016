// What a mistyped name probably meant: a command (`ordres`), an action, a column (`recever.phone`).
import { editDistance } from '../functions/lookup/name-match.js';

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
