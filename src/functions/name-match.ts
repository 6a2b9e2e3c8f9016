/**
 * Place names as people type them: any letter case and spacing, Latin accents, and Arabic
 * written with or without diacritics and with any form of alef, yaa or taa marbuta.
 */

/**
 * The comparable form of a name. NFKD splits hamza forms (أ إ آ ؤ ئ) into their base letter and
 * a combining mark, so dropping marks also drops harakat and Latin accents.
 */
export function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\p{M}\u0640]/gu, '')
    .toLowerCase()
    .replace(/\u0649/g, '\u064a')
    .replace(/\u0629/g, '\u0647')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Edit distance (insertions, deletions, substitutions), in one row of memory. */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

/** 0 for the same name, up to 1 for nothing in common; a name containing the other counts as close. */
function distance(a: string, b: string): number {
  if (a === b) return 0;
  const longest = Math.max(a.length, b.length);
  if (a.length > 0 && b.length > 0 && (a.includes(b) || b.includes(a))) return 0.5 * (1 - Math.min(a.length, b.length) / longest);
  return editDistance(a, b) / longest;
}

/** A candidate and the names it may be called by (English, Arabic, its id). */
export interface Named<T> {
  item: T;
  names: ReadonlyArray<unknown>;
}

/** The candidates one of whose names equals `query` once both are normalised. */
export function matching<T>(query: string, candidates: ReadonlyArray<Named<T>>): T[] {
  const wanted = normaliseName(query);
  return candidates.filter(({ names }) => names.some((name) => typeof name === 'string' && normaliseName(name) === wanted)).map(({ item }) => item);
}

/** The `count` candidates closest to `query`, closest first. */
export function closest<T>(query: string, candidates: ReadonlyArray<Named<T>>, count = 3): T[] {
  const wanted = normaliseName(query);
  return candidates
    .map(({ item, names }) => ({
      item,
      score: Math.min(...names.map((name) => (typeof name === 'string' && name !== '' ? distance(wanted, normaliseName(name)) : 1))),
    }))
    .sort((x, y) => x.score - y.score)
    .slice(0, count)
    .map(({ item }) => item);
}
