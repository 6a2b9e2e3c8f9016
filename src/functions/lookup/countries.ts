/**
 * A country record, as the spec's Country table gives it. No endpoint lists countries; its `_id`
 * is the `countryId` that lookups and registration take (see {@link CountryId}).
 */
export interface Country {
  /** The country's id: what `countryId` takes. */
  _id: string;
  /** The country's name. */
  name: string;
  /** Two-letter country code (`EG`). */
  code: string;
  [field: string]: unknown;
}

/**
 * The ids of the two countries the spec names, for `countryId` (lookups, registration).
 *
 * @example
 * ```ts
 * const cities = await client.lookup.cities({ countryId: CountryId.Egypt });
 * ```
 */
export const CountryId = {
  Egypt: '60e4482c7cb7d4bc4849c4d5',
  KSA: 'eF-3f9FZr',
} as const;

/** One of the country ids in {@link CountryId}. */
export type CountryId = (typeof CountryId)[keyof typeof CountryId];
