import type { RequestOptions } from '../core/config.js';
import { createCodedError, ErrorCode, ValidationError, type ValidationIssue } from '../errors/index.js';
import type { Address, AddressDetails } from '../schemas/index.js';
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

const EGYPT = '60e4482c7cb7d4bc4849c4d5';
const DETAILS = ['secondLine', 'buildingNumber', 'floor', 'apartment', 'isWorkAddress'] as const;

const label = (name: unknown, otherName: unknown): string =>
  typeof otherName === 'string' && otherName !== '' && otherName !== name ? `${String(name)} (${otherName})` : String(name);

function notFound(code: 3001 | 3002 | 3003, field: string, query: string, where: string, candidates: string[]): Error {
  const hint = candidates.length > 0 ? `; closest: ${candidates.join(', ')}` : '; the list is empty';
  const message = `no ${field} matches '${query}' ${where}${hint}`;
  const issues: ValidationIssue[] = [{ path: [field], message, errorCode: code }];
  return createCodedError(code, { source: 'client', issues, message: `${code === 3001 ? 'City' : code === 3002 ? 'Zone' : 'District'} Not Found: ${message}` });
}

function pick<T>(query: string, candidates: Array<Named<T>>, describe: (item: T) => string, fail: (closestNames: string[]) => Error): T[] {
  const found = matching(query, candidates);
  if (found.length > 0) return found;
  throw fail(closest(query, candidates).map(describe));
}

function requireText(input: Record<string, unknown>, fields: readonly string[]): void {
  const issues: ValidationIssue[] = fields
    .filter((field) => typeof input[field] !== 'string' || (input[field] as string).trim() === '')
    .map((field) => ({ path: [field], message: 'required: a non-empty string' }));
  if (issues.length > 0) throw new ValidationError(issues, { subject: 'Invalid address' });
}

export async function resolveAddress(lookup: Lookups, input: ResolveAddressInput, options?: RequestOptions): Promise<Address> {
  requireText({ ...input }, input?.zone === undefined ? ['city', 'district', 'firstLine'] : ['city', 'district', 'zone', 'firstLine']);
  const countryId = input.countryId ?? EGYPT;
  const purpose = input.purpose ?? 'dropOff';

  const cities = await lookup.cities({ countryId }, options);
  const cityLabel = (city: City): string => label(city.name, city.otherName);
  const [city] = pick(
    input.city,
    cities.map((item) => ({ item, names: [item.name, item.otherName, item._id, item.code] })),
    cityLabel,
    (names) => notFound(ErrorCode.CityNotFound, 'city', input.city, `in country ${countryId}`, names),
  ) as [City];
  const inCity = `in ${cityLabel(city)}`;

  let zone: Zone | undefined;
  if (input.zone !== undefined) {
    const zones = await lookup.zones(city._id, options);
    [zone] = pick(
      input.zone,
      zones.map((item) => ({ item, names: [item.name, item.otherName, item._id] })),
      (item) => label(item.name, item.otherName),
      (names) => notFound(ErrorCode.ZoneNotFound, 'zone', input.zone as string, inCity, names),
    ) as [Zone];
  }

  const entries = await lookup.districts(city._id, options);
  const candidates = entries.filter((entry) => zone === undefined || entry.zoneId === zone._id);
  const where = zone === undefined ? inCity : `in zone ${label(zone.name, zone.otherName)} of ${city.name}`;
  const found = pick(
    input.district,
    candidates.map((item) => ({ item, names: [item.districtName, item.districtOtherName, item.districtId] })),
    (entry) => label(entry.districtName, entry.districtOtherName),
    (names) => notFound(ErrorCode.DistrictNotFound, 'district', input.district, where, [...new Set(names)]),
  );
  const [entry] = found as [DistrictEntry];
  if (found.some((other) => other.districtId !== entry.districtId)) {
    const zones = [...new Set(found.map((other) => label(other.zoneName, other.zoneOtherName)))].join(', ');
    throw new ValidationError([{ path: ['zone'], message: `required: '${input.district}' is a district of several zones ${inCity} (${zones})` }], {
      subject: 'Ambiguous address',
    });
  }

  const served = purpose === 'pickup' ? entry.pickupAvailability : entry.dropOffAvailability;
  if (served === false) {
    const what = purpose === 'pickup' ? 'pick up from' : 'deliver to';
    const message = `the service does not ${what} ${label(entry.districtName, entry.districtOtherName)} ${inCity} (${purpose}Availability is false)`;
    throw new ValidationError([{ path: ['district'], message }], { subject: `District not served for ${purpose === 'pickup' ? 'pickup' : 'drop-off'}` });
  }

  const address: Record<string, unknown> = { city: city.name, districtId: entry.districtId };
  if (typeof entry.zoneId === 'string' && entry.zoneId !== '') address['zoneId'] = entry.zoneId;
  address['firstLine'] = input.firstLine;
  for (const field of DETAILS) if (input[field] !== undefined) address[field] = input[field];
  return address as unknown as Address;
}
