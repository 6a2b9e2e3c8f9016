import type { RequestOptions } from '../../core/options.js';
import {
  AddressNotServedError,
  createCodedError,
  errorCodeMeaning,
  type PlaceCandidate,
  type UnservedPlace,
  ValidationError,
  type ValidationIssue,
} from '../../errors/index.js';
import { leftOf, totalDeadline } from '../../internal/deadline.js';
import { isRecord } from '../../internal/guards.js';
import { snapshotOf } from '../../internal/input.js';
import { onFirstUse } from '../../internal/on-first-use.js';
import type { Address, AddressDetails } from '../../schemas/index.js';
import { coreInternals, type DeliveryCore, requireCore } from '../delivery-core.js';
import { CountryId } from './countries.js';
import { listCities, listDistricts, listZones } from './lists.js';
import { closest, matching, type Named } from './name-match.js';
import type { City, DistrictEntry, Zone } from './places.js';

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

/** The longest place name matched: a form field of a megabyte must not block the event loop. */
const MAX_PLACE_NAME_LENGTH = 100;
const ECHO_LENGTH = 40;

/** `'Nasr City'`, or the first 40 characters and `…`: messages reach logs and customers, never whole inputs. */
function quoted(text: string): string {
  const characters = Array.from(text.slice(0, ECHO_LENGTH + 1));
  return `'${characters.length > ECHO_LENGTH ? `${characters.slice(0, ECHO_LENGTH).join('')}…` : text}'`;
}

const arabic = (...names: unknown[]): { nameAr?: string } => {
  const name = names.find((candidate): candidate is string => typeof candidate === 'string' && candidate !== '');
  return name === undefined ? {} : { nameAr: name };
};
const cityPlace = (city: City): PlaceCandidate => ({ id: city._id, name: city.name, ...arabic(city.nameAr, city.otherName) });
const zonePlace = (zone: Zone): PlaceCandidate => ({ id: zone._id, name: zone.name, ...arabic(zone.nameAr, zone.otherName) });
const districtPlace = (entry: DistrictEntry): PlaceCandidate => ({ id: entry.districtId, name: entry.districtName, ...arabic(entry.districtOtherName) });
const districtNames = (entries: readonly DistrictEntry[]): Array<Named<DistrictEntry>> =>
  entries.map((item) => ({ item, names: [item.districtName, item.districtOtherName, item.districtId] }));

/** `Giza (الجيزة)`: the name, and the Arabic one when the record has it. */
function label({ name, nameAr }: PlaceCandidate): string {
  return nameAr === undefined || nameAr === name ? name : `${name} (${nameAr})`;
}

/** Labels once each, in order: a district of one name in several zones is one suggestion. */
const labels = (places: readonly PlaceCandidate[]): string => [...new Set(places.map(label))].join(', ');

/** The coded error of `field` not found, with the closest places as `candidates`, best first. */
function notFound<T>(
  code: 3001 | 3002 | 3003,
  field: string,
  query: string,
  where: string,
  candidates: Array<Named<T>>,
  place: (item: T) => PlaceCandidate,
  hint?: string,
) {
  const best = closest(query, candidates, 5).map(place);
  const unmatched = `no ${field} matches ${quoted(query)} ${where}`;
  const message = `${unmatched}; closest: ${labels(best.slice(0, 3)) || 'none (empty list)'}`;
  return createCodedError(code, {
    source: 'client',
    issues: [{ path: [field], message, errorCode: code }],
    message: `${errorCodeMeaning[code]}: ${message}`,
    candidates: best,
    unmatched,
    hint,
  });
}

/** `in Egypt`, and how to look in another country (for developers: a `hint`). */
function inCountry(countryId: string): { where: string; hint: string } {
  const names = Object.keys(CountryId) as Array<keyof typeof CountryId>;
  const name = names.find((key) => CountryId[key] === countryId);
  const elsewhere = names
    .filter((key) => key !== name)
    .map((key) => `for ${key} pass countryId: CountryId.${key}`)
    .join(', ');
  if (name === undefined) return { where: `in country ${quoted(countryId)}`, hint: `countryId is not one of CountryId: ${elsewhere}` };
  return { where: `in ${name}`, hint: `searched countryId: CountryId.${name}${countryId === CountryId.Egypt ? ', the default' : ''}; ${elsewhere}` };
}

/**
 * A district name that is the name of a zone (customers do not know the service's split): the
 * zone's district when it has one, or one of its name; otherwise a `DistrictNotFoundError`
 * saying it is a zone, with its districts as candidates. `[]` when no zone bears the name.
 */
function districtOfZone(query: string, entries: readonly DistrictEntry[], where: string): DistrictEntry[] {
  const zones = new Map<string, DistrictEntry[]>();
  for (const entry of entries) zones.set(entry.zoneId, [...(zones.get(entry.zoneId) ?? []), entry]);
  const named = [...zones.values()].map((item) => ({ item, names: [item[0]?.zoneName, item[0]?.zoneOtherName, item[0]?.zoneId] }));
  const [districts, ...others] = matching(query, named);
  const [first] = districts ?? [];
  if (districts === undefined || first === undefined || others.length > 0) return [];
  if (districts.length === 1) return districts;
  const sameName = [first.zoneName, first.zoneOtherName].map((name) => matching(name, districtNames(districts))).find((found) => found.length === 1);
  if (sameName !== undefined) return sameName;
  const candidates = districts.map(districtPlace);
  const zone = label({ id: first.zoneId, name: first.zoneName, ...arabic(first.zoneOtherName) });
  const message = `${quoted(query)} is a zone ${where} (${zone}), not a district; its districts: ${labels(candidates)}`;
  throw createCodedError(3003, {
    source: 'client',
    issues: [{ path: ['district'], message, errorCode: 3003 }],
    message: `${errorCodeMeaning[3003]}: ${message}`,
    candidates,
  });
}

/** The checks that need no lookup: required names of at most 100 characters, what the address is for, lines `create` would refuse. */
async function checkQuery(input: ResolveAddressInput): Promise<void> {
  const { city, district, zone, countryId: _country, for: use, ...lines } = input;
  const issues: ValidationIssue[] = [];
  for (const [field, value] of Object.entries({ city, district, firstLine: lines.firstLine, zone: zone ?? '-' })) {
    if (typeof value !== 'string' || value.trim() === '') issues.push({ path: [field], message: 'required: a non-empty string' });
    else if (field !== 'firstLine' && value.length > MAX_PLACE_NAME_LENGTH) {
      issues.push({ path: [field], message: `expected at most ${MAX_PLACE_NAME_LENGTH} characters, received ${value.length}` });
    }
  }
  const unknownUse = use !== 'dropOffAddress' && use !== 'pickupAddress';
  const renamed = unknownUse && 'purpose' in input;
  if (unknownUse) {
    issues.push({ path: ['for'], message: `required: 'dropOffAddress' or 'pickupAddress', the order field the address goes in` });
  }
  if (issues.length > 0) throw new ValidationError(issues, { subject: 'Invalid address', hint: renamed ? '`purpose` is now `for`' : undefined });
  // The order address rules themselves (firstLine longer than 5 characters, ...), on a stand-in location.
  // The schemas load on first use: a page that never resolves an address does not carry them.
  const { validateAddress } = await schemas.load();
  validateAddress({ ...lines, city, districtId: district });
}

/**
 * The schemas, loaded on first need by this call's own loader of `on-demand.js` (the same module
 * check.ts loads): importing check.ts instead would put the plain order check (order-fast.ts) in
 * every page that looks cities up.
 */
const schemas = onFirstUse(() => import('../../schemas/on-demand.js'));

async function addressFrom(core: DeliveryCore, input: ResolveAddressInput, options?: RequestOptions): Promise<Address> {
  // One deadline for the three lists: `totalTimeout` bounds the whole resolution.
  const deadlineAt = totalDeadline(coreInternals(core), options);
  // Read once, as JSON reads it: what is checked is what is resolved and returned.
  const given = snapshotOf(input);
  const query = (isRecord(given) ? given : {}) as unknown as ResolveAddressInput;
  await checkQuery(query);
  const { city: cityQuery, district: districtQuery, zone: zoneQuery, countryId = CountryId.Egypt, for: use, ...lines } = query;
  const pickup = use === 'pickupAddress';
  const availability = pickup ? 'pickupAvailability' : 'dropOffAvailability';
  /** Refuses a place the service does not serve the way the address needs. */
  const refuse = (kind: UnservedPlace['kind'], record: Record<string, unknown>, place: PlaceCandidate, where: string): void => {
    if (record[availability] !== false) return;
    const subject = `${kind[0]?.toUpperCase()}${kind.slice(1)} not served for ${pickup ? 'pickup' : 'drop-off'}`;
    const message = `the service does not ${pickup ? 'pick up from' : 'deliver to'} ${label(place)}${where}`;
    throw new AddressNotServedError([{ path: [kind], message }], {
      subject,
      availability,
      place: { kind, ...place },
      hint: `${availability} is false in the lookup lists`,
    });
  };

  const cities = await listCities(core, { countryId }, leftOf(options, deadlineAt));
  const country = inCountry(countryId);
  const cityNames = cities.map((item) => ({ item, names: [item.name, item.nameAr, item.otherName, item.alias, item._id, item.code] }));
  const [city] = matching(cityQuery, cityNames);
  if (city === undefined) throw notFound(3001, 'city', cityQuery, country.where, cityNames, cityPlace, country.hint);
  const where = `in ${label(cityPlace(city))}`;
  refuse('city', city, cityPlace(city), '');

  let zone: Zone | undefined;
  // `!=`: null is no zone, as the check above already reads it (rows from a database carry null).
  if (zoneQuery != null) {
    const zoneNames = (await listZones(core, city._id, leftOf(options, deadlineAt))).map((item) => ({
      item,
      names: [item.name, item.nameAr, item.otherName, item._id],
    }));
    [zone] = matching(zoneQuery, zoneNames);
    if (zone === undefined) throw notFound(3002, 'zone', zoneQuery, where, zoneNames, zonePlace);
    refuse('zone', zone, zonePlace(zone), ` ${where}`);
  }
  const entries = (await listDistricts(core, city._id, leftOf(options, deadlineAt))).filter((entry) => zone === undefined || entry.zoneId === zone._id);
  const districtWhere = zone === undefined ? where : `in zone ${label(zonePlace(zone))} of ${city.name}`;
  let found = matching(districtQuery, districtNames(entries));
  if (found.length === 0) found = districtOfZone(districtQuery, entries, where);
  const [entry] = found;
  if (entry === undefined) throw notFound(3003, 'district', districtQuery, districtWhere, districtNames(entries), districtPlace);
  if (found.some((other) => other.districtId !== entry.districtId)) {
    const zones = [...new Set(found.map((other) => label({ id: other.zoneId, name: other.zoneName, ...arabic(other.zoneOtherName) })))].join(', ');
    throw new ValidationError([{ path: ['zone'], message: `required: ${quoted(districtQuery)} is a district of several zones ${where} (${zones})` }], {
      subject: 'Ambiguous address',
    });
  }
  refuse('district', entry, districtPlace(entry), ` ${where}`);
  // The first address format, with the district's zone; the caller's other address fields as given.
  return { city: city.name, districtId: entry.districtId, ...(entry.zoneId ? { zoneId: entry.zoneId } : {}), ...lines };
}

/**
 * Turns names into the address an order needs: `city` as the service spells it, `districtId`
 * and `zoneId`. Names are matched in any letter case and spacing, in English or Arabic
 * (`nameAr`), with or without the article (`El Dokki`, `Al-Dokki`, `دقي`) and in common
 * transliteration variants while that stays unambiguous; ids are accepted too. A zone's name
 * given as the district resolves to the zone's only district (or its district of the same
 * name). Uses the (cached) lookup lists.
 *
 * `for` names the order field the address goes in, and so what the service must do there:
 * `'dropOffAddress'` (Deliver, Exchange) needs drop-off availability, `'pickupAddress'` (Cash
 * Collection, Customer Return Pickup, a business's pickup location) needs pickup availability,
 * of the city, the zone when given, and the district. There is no default: a Cash Collection
 * address checked for drop-off would pass here and be refused by `create`.
 *
 * @operation lookup.resolveAddress
 * @chunk resolveAddress
 * @calls lookup.cities, lookup.zones, lookup.districts
 *
 * @throws `ValidationError` before any request: a missing name or `for`, a name over 100
 * characters, or a line `create` would refuse (`firstLine` of 5 characters or less).
 * @throws `CityNotFoundError` 3001, `ZoneNotFoundError` 3002, `DistrictNotFoundError` 3003
 * (`source: 'client'`), with `candidates` (`{ id, name, nameAr? }[]`, best first); a zone given
 * as the district is a `DistrictNotFoundError` whose candidates are the zone's districts.
 * @throws `AddressNotServedError` (a `ValidationError`) when the city, zone or district is not
 * served the way `for` needs: `availability` names the flag that is false, `place` the place.
 * @throws `ValidationError` when the district's name is in several zones and `zone` does not say which.
 *
 * @example
 * ```ts
 * const dropOffAddress = await client.lookup.resolveAddress({ city: 'giza', district: 'الدقي', firstLine: '12 Tahrir Street, 3rd floor', for: 'dropOffAddress' });
 * // { city: 'Giza', districtId: '…', zoneId: '…', firstLine: '12 Tahrir Street, 3rd floor' }
 * const pickupAddress = await client.lookup.resolveAddress({ city: 'القاهرة', district: 'Zamalek', firstLine: '7 Brazil Street', for: 'pickupAddress' });
 * await client.deliveries.create({ type: DeliveryType.CashCollection, pickupAddress, receiver, cod: 1200 });
 * ```
 */
export function resolveAddress(core: DeliveryCore, input: ResolveAddressInput, options?: RequestOptions): Promise<Address> {
  try {
    requireCore(core); // not a core: that, before any complaint about the address
  } catch (error) {
    return Promise.reject(error);
  }
  return addressFrom(core, input, options);
}
