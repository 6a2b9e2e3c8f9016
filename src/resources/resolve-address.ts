import type { RequestOptions } from '../core/config.js';
import { createCodedError, errorCodeMeaning, ValidationError, type ValidationIssue } from '../errors/index.js';
import type { Address, AddressDetails } from '../schemas/index.js';
import { CountryId } from './countries.js';
import type { City, DistrictEntry, LookupResource, Zone } from './lookup.js';
import { closest, matching, type Named } from './name-match.js';

/** What `lookup.resolveAddress` takes: place names (English or Arabic, any case) and the address lines. */
export interface ResolveAddressInput extends AddressDetails {
  /** City name (`Cairo`, `القاهرة`), or its id. */
  city: string;
  /** District name (`Dokki`, `الدقي`), or its id. */
  district: string;
  /** Zone name or id; needed only when the district's name is in several zones of the city. */
  zone?: string | undefined;
  /** Address line 1 (an order address needs more than 5 characters). */
  firstLine: string;
  /** The country whose cities are searched. Default: Egypt (`CountryId.Egypt`). */
  countryId?: string | undefined;
  /**
   * What the address is for, so a district the service does not serve that way is refused:
   * `'dropOff'` (default) needs `dropOffAvailability`, `'pickup'` needs `pickupAvailability`.
   */
  purpose?: 'dropOff' | 'pickup' | undefined;
}

type Lookups = Pick<LookupResource, 'cities' | 'zones' | 'districts'>;

const label = (name: unknown, otherName: unknown): string => (typeof otherName === 'string' && otherName !== '' && otherName !== name ? `${String(name)} (${otherName})` : String(name));

/** The candidates named `query`, or the coded error of `field` naming the closest ones. */
function find<T>(code: 3001 | 3002 | 3003, field: string, query: string, where: string, candidates: Array<Named<T>>, describe: (item: T) => string): T[] {
  const found = matching(query, candidates);
  if (found.length > 0) return found;
  const message = `no ${field} matches '${query}' ${where}; closest: ${[...new Set(closest(query, candidates).map(describe))].join(', ') || 'none (empty list)'}`;
  throw createCodedError(code, { source: 'client', issues: [{ path: [field], message, errorCode: code }], message: `${errorCodeMeaning[code]}: ${message}` });
}

/** `in Egypt (countryId: CountryId.Egypt, the default; for KSA pass countryId: CountryId.KSA)`: where a city was looked for, and how to look elsewhere. */
function inCountry(countryId: string): string {
  const names = Object.keys(CountryId) as Array<keyof typeof CountryId>;
  const name = names.find((key) => CountryId[key] === countryId);
  const elsewhere = names
    .filter((key) => key !== name)
    .map((key) => `for ${key} pass countryId: CountryId.${key}`)
    .join(', ');
  if (name === undefined) return `in country '${countryId}' (not one of CountryId: ${elsewhere})`;
  return `in ${name} (countryId: CountryId.${name}${countryId === CountryId.Egypt ? ', the default' : ''}; ${elsewhere})`;
}

function invalid(field: string, message: string, subject: string): ValidationError {
  return new ValidationError([{ path: [field], message }], { subject });
}

export async function resolveAddress(lookup: Lookups, input: ResolveAddressInput, options?: RequestOptions): Promise<Address> {
  const { city: cityQuery, district: districtQuery, zone: zoneQuery, countryId = CountryId.Egypt, purpose = 'dropOff', ...lines } = input ?? ({} as ResolveAddressInput);
  const missing: ValidationIssue[] = Object.entries({ city: cityQuery, district: districtQuery, firstLine: lines.firstLine, zone: zoneQuery ?? '-' })
    .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
    .map(([field]) => ({ path: [field], message: 'required: a non-empty string' }));
  if (missing.length > 0) throw new ValidationError(missing, { subject: 'Invalid address' });

  const cities = await lookup.cities({ countryId }, options);
  const [city] = find(3001, 'city', cityQuery, inCountry(countryId), cities.map((item) => ({ item, names: [item.name, item.otherName, item._id, item.code] })), (item) => label(item.name, item.otherName)) as [City];
  let where = `in ${label(city.name, city.otherName)}`;

  let zone: Zone | undefined;
  // `!=`: null is no zone, as the check above already reads it (rows from a database carry null).
  if (zoneQuery != null) {
    const zones = await lookup.zones(city._id, options);
    [zone] = find(3002, 'zone', zoneQuery, where, zones.map((item) => ({ item, names: [item.name, item.otherName, item._id] })), (item) => label(item.name, item.otherName)) as [Zone];
  }
  const entries = (await lookup.districts(city._id, options)).filter((entry) => zone === undefined || entry.zoneId === zone._id);
  const found = find(
    3003,
    'district',
    districtQuery,
    zone === undefined ? where : `in zone ${label(zone.name, zone.otherName)} of ${city.name}`,
    entries.map((item) => ({ item, names: [item.districtName, item.districtOtherName, item.districtId] })),
    (item) => label(item.districtName, item.districtOtherName),
  );
  const [entry] = found as [DistrictEntry];
  if (found.some((other) => other.districtId !== entry.districtId)) {
    const zones = [...new Set(found.map((other) => label(other.zoneName, other.zoneOtherName)))].join(', ');
    throw invalid('zone', `required: '${districtQuery}' is a district of several zones ${where} (${zones})`, 'Ambiguous address');
  }
  const pickup = purpose === 'pickup';
  if ((pickup ? entry.pickupAvailability : entry.dropOffAvailability) === false) {
    where = `the service does not ${pickup ? 'pick up from' : 'deliver to'} ${label(entry.districtName, entry.districtOtherName)} ${where} (${purpose}Availability is false)`;
    throw invalid('district', where, `District not served for ${pickup ? 'pickup' : 'drop-off'}`);
  }
  // The first address format, with the district's zone; the caller's other address fields as given.
  return { city: city.name, districtId: entry.districtId, ...(entry.zoneId ? { zoneId: entry.zoneId } : {}), ...lines };
}
