import type { RequestOptions } from '../core/config.js';
import { createCodedError, errorCodeMeaning, ValidationError, type ValidationIssue } from '../errors/index.js';
import type { Address, AddressDetails } from '../schemas/index.js';
import { CountryId } from './countries.js';
import type { City, DistrictEntry, Zone } from './lookup.js';
import { closest, matching, type Named } from './name-match.js';

/**
 * Where a resolved address goes, which says what the service must do there: deliver
 * (`'dropOffAddress'`) or pick up (`'pickupAddress'`).
 */
export type AddressUse = 'dropOffAddress' | 'pickupAddress';

/** What `lookup.resolveAddress` takes: place names (English or Arabic, any case) and the address lines. */
export interface ResolveAddressInput extends AddressDetails {
  /** City name (`Cairo`, `القاهرة`), or its id. */
  city: string;
  /** District name (`Dokki`, `الدقي`), or its id. */
  district: string;
  /** Zone name or id; needed only when the district's name is in several zones of the city. */
  zone?: string | undefined;
  /** Address line 1: more than 5 characters, as an order address needs. */
  firstLine: string;
  /** The country whose cities are searched. Default: Egypt (`CountryId.Egypt`). */
  countryId?: string | undefined;
  /**
   * The order field the address goes in, so a place the service does not serve that way is
   * refused before any order is sent:
   * - `'dropOffAddress'` (Deliver, Exchange): the service delivers there, so the district
   *   (and its city) must have `dropOffAvailability`.
   * - `'pickupAddress'` (Cash Collection, Customer Return Pickup, and a business's pickup
   *   locations): the service picks up there, so they must have `pickupAvailability`.
   *
   * An Exchange's customer also hands a package back at the drop-off address; the spec does not
   * say the service checks pickup there, so only drop-off is checked.
   */
  for: AddressUse;
}

/** The lookup lists resolving reads (cached by the core). */
interface Lookups {
  cities(params: { countryId: string }, options?: RequestOptions): PromiseLike<City[]>;
  zones(cityId: string, options?: RequestOptions): PromiseLike<Zone[]>;
  districts(cityId: string, options?: RequestOptions): PromiseLike<DistrictEntry[]>;
}

/** `Giza (الجيزة)`: the name, and the Arabic one when the record has it. */
function label(name: unknown, ...others: unknown[]): string {
  const other = others.find((candidate) => typeof candidate === 'string' && candidate !== '' && candidate !== name);
  return other === undefined ? String(name) : `${String(name)} (${String(other)})`;
}

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

/** The checks that need no lookup: required names, what the address is for, lines `create` would refuse. */
async function checkInput(input: ResolveAddressInput): Promise<void> {
  const { city, district, zone, countryId: _country, for: use, ...lines } = input;
  const issues: ValidationIssue[] = Object.entries({ city, district, firstLine: lines.firstLine, zone: zone ?? '-' })
    .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
    .map(([field]) => ({ path: [field], message: 'required: a non-empty string' }));
  if (use !== 'dropOffAddress' && use !== 'pickupAddress') {
    const renamed = 'purpose' in input ? ' (`purpose` is now `for`)' : '';
    issues.push({ path: ['for'], message: `required: 'dropOffAddress' or 'pickupAddress', the order field the address goes in${renamed}` });
  }
  if (issues.length > 0) throw new ValidationError(issues, { subject: 'Invalid address' });
  // The order address rules themselves (firstLine longer than 5 characters, ...), on a stand-in location.
  // The schemas load on first use: a page that never resolves an address does not carry them.
  const { validateAddress } = await import('../schemas/on-demand.js');
  validateAddress({ ...lines, city, districtId: district });
}

export async function resolveAddress(lookup: Lookups, input: ResolveAddressInput, options?: RequestOptions): Promise<Address> {
  await checkInput(typeof input === 'object' && input !== null ? input : ({} as ResolveAddressInput));
  const { city: cityQuery, district: districtQuery, zone: zoneQuery, countryId = CountryId.Egypt, for: use, ...lines } = input;
  const pickup = use === 'pickupAddress';
  const availability = pickup ? 'pickupAvailability' : 'dropOffAvailability';
  /** Refuses a place the service does not serve the way the address needs. */
  const refuse = (field: string, place: Record<string, unknown>, name: string): void => {
    if (place[availability] !== false) return;
    const subject = `${field[0]?.toUpperCase()}${field.slice(1)} not served for ${pickup ? 'pickup' : 'drop-off'}`;
    throw invalid(field, `the service does not ${pickup ? 'pick up from' : 'deliver to'} ${name} (${availability} is false)`, subject);
  };

  const cities = await lookup.cities({ countryId }, options);
  const [city] = find(
    3001,
    'city',
    cityQuery,
    inCountry(countryId),
    cities.map((item) => ({ item, names: [item.name, item.nameAr, item.otherName, item.alias, item._id, item.code] })),
    (item) => label(item.name, item.nameAr, item.otherName),
  ) as [City];
  const where = `in ${label(city.name, city.nameAr, city.otherName)}`;
  refuse('city', city, label(city.name, city.nameAr, city.otherName));

  let zone: Zone | undefined;
  // `!=`: null is no zone, as the check above already reads it (rows from a database carry null).
  if (zoneQuery != null) {
    const zones = await lookup.zones(city._id, options);
    [zone] = find(3002, 'zone', zoneQuery, where, zones.map((item) => ({ item, names: [item.name, item.nameAr, item.otherName, item._id] })), (item) => label(item.name, item.nameAr, item.otherName)) as [Zone];
    refuse('zone', zone, `${label(zone.name, zone.nameAr, zone.otherName)} ${where}`);
  }
  const entries = (await lookup.districts(city._id, options)).filter((entry) => zone === undefined || entry.zoneId === zone._id);
  const found = find(
    3003,
    'district',
    districtQuery,
    zone === undefined ? where : `in zone ${label(zone.name, zone.nameAr, zone.otherName)} of ${city.name}`,
    entries.map((item) => ({ item, names: [item.districtName, item.districtOtherName, item.districtId] })),
    (item) => label(item.districtName, item.districtOtherName),
  );
  const [entry] = found as [DistrictEntry];
  if (found.some((other) => other.districtId !== entry.districtId)) {
    const zones = [...new Set(found.map((other) => label(other.zoneName, other.zoneOtherName)))].join(', ');
    throw invalid('zone', `required: '${districtQuery}' is a district of several zones ${where} (${zones})`, 'Ambiguous address');
  }
  refuse('district', entry, `${label(entry.districtName, entry.districtOtherName)} ${where}`);
  // The first address format, with the district's zone; the caller's other address fields as given.
  return { city: city.name, districtId: entry.districtId, ...(entry.zoneId ? { zoneId: entry.zoneId } : {}), ...lines };
}
