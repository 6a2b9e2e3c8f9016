/**
 * Place names as people type them: any letter case and spacing, Latin accents, and Arabic
 * written with or without diacritics and with any form of alef, yaa or taa marbuta. Failing an
 * exact match, the Arabic article (`El `, `Al-`, `ال`) and common transliteration variants
 * (`q`/`k`, `ou`/`u`, doubled letters) are ignored, as long as that leaves one name.
 */

/**
 * The comparable form of a name. NFKD splits hamza forms (أ إ آ ؤ ئ) into their base letter and
 * a combining mark, so dropping marks also drops harakat and Latin accents.
 */
function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\p{M}\u0640]/gu, '')
    .toLowerCase()
    .replace(/\u0649/g, '\u064a')
    .replace(/\u0629/g, '\u0647')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

// Latin spellings of one Arabic sound, folded to one form: Doqqi/Dokki, Mohandessin/Mohandesin and
// Qalyub/Kalyub meet; Zamalek/Zamalik do not (a vowel differs: that is for the suggestions).
const VARIANTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/q/g, 'k'],
  [/ou|oo/g, 'u'],
  [/ee|ei|ey/g, 'i'],
  [/(\p{L})\1+/gu, '$1'],
];

/** The loosest comparable form: {@link normaliseName}, without articles and spaces, variants folded. */
function looseName(name: string): string {
  const words = normaliseName(name)
    .split(' ')
    .filter((word) => word !== 'el' && word !== 'al')
    .map((word) => (word.startsWith('\u0627\u0644') && word.length > 3 ? word.slice(2) : word));
  return VARIANTS.reduce((text, [variant, folded]) => text.replace(variant, folded), words.join(''));
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

const isName = (name: unknown): name is string => typeof name === 'string' && name !== '';

/**
 * The candidates one of whose names equals `query` once both are normalised; failing that, those
 * whose name equals it loosely ({@link looseName}), when all of them bear the same name (the same
 * district in several zones is for the caller to tell apart; `Sharq` and `El Sharq` are ambiguous).
 */
export function matching<T>(query: string, candidates: ReadonlyArray<Named<T>>): T[] {
  const wanted = normaliseName(query);
  const exact = candidates.filter(({ names }) => names.some((name) => isName(name) && normaliseName(name) === wanted));
  if (exact.length > 0) return exact.map(({ item }) => item);
  const loose = looseName(query);
  if (loose === '') return [];
  const hits = candidates.flatMap(({ item, names }) => {
    const name = names.find((other) => isName(other) && looseName(other) === loose);
    return name === undefined ? [] : [{ item, name: normaliseName(name as string) }];
  });
  return new Set(hits.map(({ name }) => name)).size === 1 ? hits.map(({ item }) => item) : [];
}

/** The `count` candidates closest to `query`, closest first. */
export function closest<T>(query: string, candidates: ReadonlyArray<Named<T>>, count = 3): T[] {
  const wanted = normaliseName(query);
  const loose = looseName(query);
  return candidates
    .map(({ item, names }) => ({
      item,
      score: Math.min(
        ...names.map((name) => (isName(name) ? Math.min(distance(wanted, normaliseName(name)), loose === '' ? 1 : distance(loose, looseName(name))) : 1)),
      ),
    }))
    .sort((x, y) => x.score - y.score)
    .slice(0, count)
    .map(({ item }) => item);
}
