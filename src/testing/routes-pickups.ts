/**
 * Pickups, pickup locations and fees (live-service.md), answered in the shapes the service's own
 * integrations read. Pickups are kept per business.
 */
import { type PickupErrorCode, pickupErrorCodeMeaning } from '../errors/codes.js';
import { isFilled } from '../internal/guards.js';
import { findCityByName } from './addresses.js';
import type { Account, BusinessRecord, PickupRecord } from './store.js';
import { codedRefusal, invalid, isRecord, notFound, ok, RuleViolation } from './wire.js';

const DAY_MS = 86_400_000;
/** The sandbox's calendar day is Cairo's, taken as UTC+2. */
const CAIRO_OFFSET_MS = 2 * 3_600_000;
const SLOTS = ['10:00 to 13:00', '13:00 to 16:00'];
const FRIDAY = 5;

const pickupRefusal = (code: PickupErrorCode, detail: string): RuleViolation => new RuleViolation(400, `${pickupErrorCodeMeaning[code]}: ${detail}`, code);

/** `YYYY-MM-DD` of a moment, on the Cairo calendar. */
const dayOf = (time: number): string => new Date(time + CAIRO_OFFSET_MS).toISOString().slice(0, 10);
const weekdayOf = (day: string): number => new Date(`${day}T00:00:00Z`).getUTCDay();

export function currentBusiness(account: Account): BusinessRecord {
  const business = account.currentBusiness();
  if (business === undefined) throw codedRefusal(1073, 'create a business and its pickup location first');
  return business;
}

/** GET /pickups/available-dates?days=N: the next N days from today, Fridays left out. */
export function availableDates(url: URL, now: number): Response {
  const raw = url.searchParams.get('days') ?? '7';
  const days = Number(raw);
  if (!Number.isSafeInteger(days) || days < 1 || days > 60) throw invalid('days must be a whole number from 1 to 60');
  const dates: string[] = [];
  for (let i = 0; i < days; i++) {
    const day = dayOf(now + i * DAY_MS);
    if (weekdayOf(day) !== FRIDAY) dates.push(day);
  }
  return ok(dates);
}

function pickupView(pickup: PickupRecord): Record<string, unknown> {
  return {
    ...pickup.extra,
    _id: pickup._id,
    puid: pickup.puid,
    state: pickup.state,
    scheduledDate: pickup.scheduledDate,
    scheduledTimeSlot: pickup.scheduledTimeSlot,
    businessLocationId: pickup.businessLocationId,
    contactPerson: pickup.contactPerson,
    deliveries: [],
    createdAt: new Date(pickup.createdAt).toISOString(),
  };
}

/** The rules of a pickup's date, slot, location and contact: 1083 past, 1080 Friday, 1078 same location and date. */
function checkPickup(account: Account, business: BusinessRecord, fields: Record<string, unknown>, now: number, self: string | undefined): void {
  const { scheduledDate: date, scheduledTimeSlot: slot, businessLocationId: location, contactPerson: contact } = fields;
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
    throw invalid('scheduledDate must be a date written YYYY-MM-DD');
  if (typeof slot !== 'string' || !SLOTS.includes(slot)) throw invalid(`scheduledTimeSlot must be one of: ${SLOTS.join(', ')}`);
  if (!isFilled(location) || !business.pickupLocations.some((entry) => entry._id === location))
    throw invalid(`businessLocationId ${String(location)} is not a pickup location of this business`);
  if (!isRecord(contact) || !isFilled(contact['name']) || !isFilled(contact['phone'])) throw invalid('contactPerson needs name and phone');
  if (date < dayOf(now)) throw pickupRefusal(1083, date);
  if (weekdayOf(date) === FRIDAY) throw pickupRefusal(1080, date);
  for (const other of account.pickups.values()) {
    if (
      other._id !== self &&
      other.businessId === business._id &&
      other.state === 'Requested' &&
      other.businessLocationId === location &&
      other.scheduledDate === date
    ) {
      throw pickupRefusal(1078, `pickup ${other._id} is already requested for ${date}`);
    }
  }
}

const KNOWN = ['scheduledDate', 'scheduledTimeSlot', 'businessLocationId', 'contactPerson'];
const extraOf = (body: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(body).filter(([key]) => !KNOWN.includes(key) && key !== '_id'));

/** POST /pickups. */
export function createPickup(account: Account, body: unknown, now: number): Response {
  if (!isRecord(body)) throw invalid('The body must be a JSON object');
  const business = currentBusiness(account);
  checkPickup(account, business, body, now, undefined);
  const pickup: PickupRecord = {
    _id: account.nextId(),
    puid: account.nextPuid(),
    businessId: business._id,
    state: 'Requested',
    scheduledDate: body['scheduledDate'] as string,
    scheduledTimeSlot: body['scheduledTimeSlot'] as string,
    businessLocationId: body['businessLocationId'] as string,
    contactPerson: body['contactPerson'] as Record<string, unknown>,
    extra: extraOf(body),
    createdAt: now,
  };
  account.pickups.set(pickup._id, pickup);
  return ok(pickupView(pickup), 201, 'Pickup created');
}

function findPickup(account: Account, id: string): PickupRecord {
  const business = currentBusiness(account);
  const pickup = account.pickups.get(id);
  if (pickup === undefined || pickup.businessId !== business._id) throw notFound(`Pickup ${id} not found`);
  return pickup;
}

/** GET /pickups/{id}. */
export function getPickup(account: Account, id: string): Response {
  return ok(pickupView(findPickup(account, id)));
}

/** GET /pickups: the current business's requests, newest first. */
export function listPickups(account: Account): Response {
  const business = currentBusiness(account);
  const pickups = [...account.pickups.values()]
    .filter((pickup) => pickup.businessId === business._id)
    .reverse()
    .map(pickupView);
  return ok({ pickups, count: pickups.length });
}

/** PUT /pickups/{id}: the merged request is checked as a new one. */
export function updatePickup(account: Account, id: string, body: unknown, now: number): Response {
  if (!isRecord(body)) throw invalid('The body must be a JSON object');
  const pickup = findPickup(account, id);
  const merged = {
    scheduledDate: pickup.scheduledDate,
    scheduledTimeSlot: pickup.scheduledTimeSlot,
    businessLocationId: pickup.businessLocationId,
    contactPerson: pickup.contactPerson,
    ...body,
  };
  checkPickup(account, currentBusiness(account), merged, now, pickup._id);
  pickup.scheduledDate = merged.scheduledDate as string;
  pickup.scheduledTimeSlot = merged.scheduledTimeSlot as string;
  pickup.businessLocationId = merged.businessLocationId as string;
  pickup.contactPerson = merged.contactPerson as Record<string, unknown>;
  pickup.extra = { ...pickup.extra, ...extraOf(body) };
  return ok(pickupView(pickup), 200, 'Pickup updated');
}

/** DELETE /pickups/{id}: the request is canceled and no longer listed. */
export function deletePickup(account: Account, id: string): Response {
  const pickup = findPickup(account, id);
  pickup.state = 'Canceled';
  account.pickups.delete(pickup._id);
  return ok({ _id: pickup._id }, 200, 'Pickup deleted');
}

/**
 * The sandbox's fee table. MADE UP, stable, and not the service's prices: a base by size, 10 EGP
 * more between cities, 1% of cod above 3000 EGP, 14% VAT on top.
 */
const BASE_FEE: Readonly<Record<string, number>> = { Normal: 60, 'Light Bulky': 120, 'Heavy Bulky': 250 };

/** GET /pricing/shipment/calculator?dropOffCity=&pickupCity=&cod=&type=&size=. */
export function calculatePrice(url: URL): Response {
  const params = url.searchParams;
  const dropOff = findCityByName(params.get('dropOffCity') ?? '');
  const pickup = findCityByName(params.get('pickupCity') ?? '');
  if (dropOff === undefined) throw codedRefusal(3001, `dropOffCity '${params.get('dropOffCity') ?? ''}'`);
  if (pickup === undefined) throw codedRefusal(3001, `pickupCity '${params.get('pickupCity') ?? ''}'`);
  const size = params.get('size') ?? 'Normal';
  const base = BASE_FEE[size];
  if (base === undefined) throw invalid(`size must be one of: ${Object.keys(BASE_FEE).join(', ')}`);
  const cod = Number(params.get('cod') ?? '0');
  if (!Number.isFinite(cod) || cod < 0) throw invalid('cod must be a number, 0 or more');
  if (cod > 30_000) throw codedRefusal(3007);
  const shippingFee = base + (dropOff._id === pickup._id ? 0 : 10);
  const extraCodFee = cod > 3000 ? Math.round(cod * 0.01 * 100) / 100 : 0;
  const priceAfterVat = Math.round((shippingFee + extraCodFee) * 1.14 * 100) / 100;
  return ok({
    shippingFee,
    priceAfterVat,
    extraCodFee: { amount: extraCodFee },
    tier: { name: 'Sandbox', openingPackageFee: { amount: 0 }, bostaMaterialFee: { amount: 0 } },
    currency: 'EGP',
  });
}
