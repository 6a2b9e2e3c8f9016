import { isFilled } from '../internal/guards.js';
import { SANDBOX_STREET_CODES, type SeedCity, type SeedDistrict, type SeedZone, seedData } from './seed.js';
import { codedRefusal, invalid, isRecord } from './wire.js';

const same = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

export function findCityByName(name: string): SeedCity | undefined {
  return seedData().cities.find((city) => same(city.name, name) || same(city.otherName, name));
}

export function findCityById(id: string): SeedCity | undefined {
  return seedData().cities.find((city) => city._id === id);
}

export function findDistrictById(id: string): SeedDistrict | undefined {
  return seedData().districts.find((district) => district.districtId === id);
}

function findDistrictByName(cityId: string, name: string): SeedDistrict | undefined {
  return seedData().districts.find((d) => d.cityId === cityId && (same(d.districtName, name) || same(d.districtOtherName, name)));
}

function findZone(id: string): SeedZone | undefined {
  return seedData().zones.find((zone) => zone._id === id);
}

const STRING_FIELDS = ['city', 'cityId', 'districtId', 'districtName', 'zoneId', 'firstLine', 'secondLine', 'streetCode', 'zone', 'district'];
// The service's own PHP and Python SDKs send these as integers.
const STRING_OR_NUMBER_FIELDS = ['buildingNumber', 'floor', 'apartment'];
const isGiven = (value: unknown): boolean => value !== undefined && value !== null;

interface ResolvedAddress {
  readonly city: SeedCity | undefined;
  readonly district: SeedDistrict | undefined;
}

type AddressRole = 'dropOffAddress' | 'pickupAddress';

/**
 * The server-side checks of an order address, in the order of their codes: 3009, then the city
 * (3001), the zone (3002), the district (3003) and the street code (3004). Throws a `RuleViolation`.
 * `marketplacePickup`: the spec's marketplace pickupAddress, which needs only firstLine and city.
 */
export function checkOrderAddress(value: unknown, role: AddressRole, marketplacePickup = false): ResolvedAddress {
  if (!isRecord(value)) throw invalid(`${role} must be an object`);
  // null is "not given", as PHP and Python clients send every empty field.
  for (const key of STRING_FIELDS) {
    if (isGiven(value[key]) && typeof value[key] !== 'string') throw invalid(`${role}.${key} must be a string`);
  }
  for (const key of STRING_OR_NUMBER_FIELDS) {
    const field = value[key];
    if (isGiven(field) && typeof field !== 'string' && !(typeof field === 'number' && Number.isFinite(field)))
      throw invalid(`${role}.${key} must be a string or a number`);
  }
  if (isGiven(value['isWorkAddress']) && typeof value['isWorkAddress'] !== 'boolean') throw invalid(`${role}.isWorkAddress must be a boolean`);
  const { city: cityName, cityId, districtId, districtName, zoneId, firstLine, streetCode } = value as Record<string, string | undefined>;

  if (!isFilled(cityName) && !isFilled(zoneId) && !isFilled(districtId)) {
    throw codedRefusal(3009, `${role} has none of city, zoneId or districtId`);
  }
  if (!isFilled(firstLine) || firstLine.trim().length <= 5) {
    throw invalid(`${role}.firstLine is required and must be longer than 5 characters`);
  }

  let city: SeedCity | undefined;
  if (isFilled(cityId)) {
    city = findCityById(cityId);
    if (city === undefined) throw codedRefusal(3001, `${role}.cityId '${cityId}' is not in the cities list`);
  }
  if (isFilled(cityName)) {
    const named = findCityByName(cityName);
    if (named === undefined) throw codedRefusal(3001, `${role}.city '${cityName}' is not in the cities list`);
    if (city !== undefined && city._id !== named._id) throw codedRefusal(3001, `${role}.city '${cityName}' is not the city of cityId '${city._id}'`);
    city = named;
  }

  if (isFilled(zoneId)) {
    const zone = findZone(zoneId);
    if (zone === undefined) throw codedRefusal(3002, `${role}.zoneId '${zoneId}' is not in the zones list`);
    if (city !== undefined && zone.cityId !== city._id) throw codedRefusal(3002, `${role}.zoneId '${zoneId}' is not a zone of ${city.name}`);
  }

  let district: SeedDistrict | undefined;
  if (isFilled(districtId)) {
    district = findDistrictById(districtId);
    if (district === undefined) throw codedRefusal(3003, `${role}.districtId '${districtId}' is not in the district lists`);
    if (city !== undefined && district.cityId !== city._id) throw codedRefusal(3003, `${role}.districtId '${districtId}' is not a district of ${city.name}`);
  } else if (isFilled(districtName)) {
    if (!isFilled(cityId)) throw invalid(`${role}.cityId is required with districtName, as is city (or zoneId)`);
    district = findDistrictByName(cityId, districtName);
    if (district === undefined) throw codedRefusal(3003, `${role}.districtName '${districtName}' is not a district of ${city?.name ?? cityId}`);
  } else if (marketplacePickup) {
    if (!isFilled(cityName)) throw invalid(`${role}.city is required in marketplace mode`);
    const loose = value['district'];
    if (isFilled(loose) && city !== undefined) {
      district = findDistrictByName(city._id, loose);
      if (district === undefined) throw codedRefusal(3003, `${role}.district '${loose}' is not a district of ${city.name}`);
    }
  } else {
    throw invalid(`${role}.districtId is required, or districtName with cityId and city (or zoneId)`);
  }

  if (district !== undefined && isFilled(zoneId) && district.zoneId !== zoneId) {
    throw codedRefusal(3003, `${role}: district '${district.districtName}' is not in zone '${zoneId}'`);
  }
  if (streetCode !== undefined && !SANDBOX_STREET_CODES.includes(streetCode)) {
    throw codedRefusal(3004, `${role}.streetCode '${streetCode}' is unknown`);
  }
  if (district !== undefined && role === 'dropOffAddress' && !district.dropOffAvailability) {
    throw invalid(`The service does not deliver to ${district.districtName} (dropOffAvailability is false)`);
  }
  if (district !== undefined && role === 'pickupAddress' && !district.pickupAvailability) {
    throw invalid(`The service does not pick up from ${district.districtName} (pickupAvailability is false)`);
  }
  return { city: city ?? (district === undefined ? undefined : findCityById(district.cityId)), district };
}

/**
 * A pickup location entry (of `PUT /businesses/<id>`, or `POST /pickup-locations`): districtId from
 * the lists, firstLine of at least 5 characters. `at` prefixes the field names in messages.
 */
export function checkPickupLocation(value: unknown, at = ''): { readonly district: SeedDistrict; readonly entry: Record<string, unknown> } {
  const field = (key: string): string => (at === '' ? key : `${at}.${key}`);
  if (!isRecord(value)) throw invalid(`${at === '' ? 'The body' : at} must be an object`);
  for (const key of ['locationName', 'districtId', 'firstLine', 'buildingNumber', 'floor', 'apartment', 'secondLine']) {
    if (value[key] !== undefined && typeof value[key] !== 'string') throw invalid(`${field(key)} must be a string`);
  }
  const districtId = value['districtId'];
  const firstLine = value['firstLine'];
  if (!isFilled(districtId)) throw invalid(`${field('districtId')} is required`);
  if (!isFilled(firstLine) || firstLine.trim().length < 5) throw invalid(`${field('firstLine')} is required and must be at least 5 characters`);
  const district = findDistrictById(districtId);
  if (district === undefined) throw codedRefusal(3003, `${field('districtId')} '${districtId}' is not in the district lists`);
  if (!district.pickupAvailability) throw invalid(`The service does not pick up from ${district.districtName} (pickupAvailability is false)`);
  return { district, entry: value };
}
