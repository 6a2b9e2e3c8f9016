/**
 * A business's pickup locations (live-service.md, "A merchant's month"): several warehouses, one of
 * them the default an order uses when it names no `businessLocationId`. The first location a
 * business gets is its default, as the spec says.
 */
import { checkPickupLocation, findCityById } from './addresses.js';
import { currentBusiness } from './routes-pickups.js';
import type { SeedDistrict } from './seed.js';
import type { Account, BusinessRecord, PickupLocationRecord } from './store.js';
import { invalid, isRecord, notFound, ok } from './wire.js';

const ADDRESS_FIELDS = ['districtId', 'firstLine', 'buildingNumber', 'floor', 'apartment', 'secondLine'];

/** A new location of `business` from a checked entry; the default when it is the business's first. */
export function pickupLocationRecord(account: Account, business: BusinessRecord, district: SeedDistrict, entry: Record<string, unknown>): PickupLocationRecord {
  const { locationName, contactPerson, ...address } = entry;
  return {
    _id: account.nextId(),
    locationName: typeof locationName === 'string' ? locationName : `Location ${business.pickupLocations.length + 1}`,
    isDefault: business.pickupLocations.length === 0,
    address: addressOf(address, district),
    contactPerson: isRecord(contactPerson) ? contactPerson : undefined,
  };
}

function addressOf(address: Record<string, unknown>, district: SeedDistrict): Record<string, unknown> {
  const kept = Object.fromEntries(Object.entries(address).filter(([key]) => ADDRESS_FIELDS.includes(key)));
  return { ...kept, districtName: district.districtName, zoneId: district.zoneId, cityId: district.cityId, city: findCityById(district.cityId)?.name };
}

function locationView(business: BusinessRecord, location: PickupLocationRecord): Record<string, unknown> {
  return {
    _id: location._id,
    locationName: location.locationName,
    isDefault: location.isDefault,
    contactPerson: location.contactPerson ?? { name: business.name, phone: '01000000000' },
    address: location.address,
  };
}

function findLocation(business: BusinessRecord, id: string): PickupLocationRecord {
  const location = business.pickupLocations.find((entry) => entry._id === id);
  if (location === undefined) throw notFound(`Pickup location ${id} not found`);
  return location;
}

/** GET /pickup-locations: `{ total, list }`. */
export function listPickupLocations(account: Account): Response {
  const business = currentBusiness(account);
  const list = business.pickupLocations.map((location) => locationView(business, location));
  return ok({ total: list.length, list });
}

/** POST /pickup-locations: the spec's pickup location entry, and `contactPerson`. */
export function createPickupLocation(account: Account, body: unknown): Response {
  const business = currentBusiness(account);
  const { district, entry } = checkPickupLocation(body);
  const location = pickupLocationRecord(account, business, district, entry);
  business.pickupLocations.push(location);
  return ok(locationView(business, location), 201, 'pickup location created successfully.');
}

/** GET /pickup-locations/{id}. */
export function getPickupLocation(account: Account, id: string): Response {
  const business = currentBusiness(account);
  return ok(locationView(business, findLocation(business, id)));
}

/** PUT /pickup-locations/{id}: the merged location is checked as a new one; answers `{ isDefault }` as the service does. */
export function updatePickupLocation(account: Account, id: string, body: unknown): Response {
  if (!isRecord(body)) throw invalid('The body must be a JSON object');
  const business = currentBusiness(account);
  const location = findLocation(business, id);
  const merged = { ...location.address, locationName: location.locationName, contactPerson: location.contactPerson, ...body };
  const { district, entry } = checkPickupLocation(merged);
  const { locationName, contactPerson, ...address } = entry;
  if (typeof locationName === 'string') location.locationName = locationName;
  location.contactPerson = isRecord(contactPerson) ? contactPerson : undefined;
  location.address = addressOf(address, district);
  return ok({ isDefault: location.isDefault }, 200, 'pickup location updated successfully.');
}

/** DELETE /pickup-locations/{id}: refused while an upcoming pickup is linked to it; the next location becomes the default. */
export function deletePickupLocation(account: Account, id: string): Response {
  const business = currentBusiness(account);
  const location = findLocation(business, id);
  const linked = [...account.pickups.values()].find((pickup) => pickup.businessLocationId === id && pickup.state === 'Requested');
  if (linked !== undefined) throw invalid(`Pickup location ${id} is linked to upcoming pickup ${linked._id} and cannot be deleted`);
  business.pickupLocations.splice(business.pickupLocations.indexOf(location), 1);
  const next = business.pickupLocations[0];
  if (location.isDefault && next !== undefined) next.isDefault = true;
  return ok(null, 200, 'pickup location deleted successfully.');
}

/** PUT /pickup-locations/{id}/default: this location becomes the default, the others not. */
export function setDefaultPickupLocation(account: Account, id: string): Response {
  const business = currentBusiness(account);
  const location = findLocation(business, id);
  for (const entry of business.pickupLocations) entry.isDefault = entry === location;
  return ok({ isDefault: true }, 200, 'pickup location updated successfully.');
}
