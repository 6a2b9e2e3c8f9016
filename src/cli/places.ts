/**
 * Place names in an import. Spreadsheets carry the city and the district by name (`Cairo`,
 * `الدقي`), where an order address needs the district's id, or its name with `cityId` and `city`.
 * An address that names its district (`districtName`, or `district`) without `districtId` is
 * resolved with `lookup.resolveAddress` (the lookup lists, no key needed), once per place for the
 * whole import, and sent in the first format: `city` as the service spells it, `districtId`,
 * `zoneId`, and the row's own lines. A name the lists do not have is the row's refusal, with the
 * likely name: `dropOffAddress.districtName: no district matches 'Zamalik' in Cairo: did you mean
 * Zamalek?`. Addresses with a `districtId` are sent as they are.
 */

import {
  AddressNotServedError,
  CityNotFoundError,
  createCodedError,
  type DeliveryClient,
  DeliveryError,
  DistrictNotFoundError,
  formatPath,
  type PlaceCandidate,
  ValidationError,
  ZoneNotFoundError,
} from '../index.js';
import { editDistance } from './suggest.js';

type AddressField = 'dropOffAddress' | 'pickupAddress';
const FIELDS: readonly AddressField[] = ['dropOffAddress', 'pickupAddress'];

/** Where a resolved place puts its ids; the row's own lines are kept. */
interface Place {
  city: string;
  districtId: string;
  zoneId?: string;
}

/** A row's place that could not be resolved: its refusal (a name the lists do not have), or why it could not be looked up. */
export class PlaceError extends Error {
  override name = 'PlaceError';
  /** True for a place the lists refuse (fix the row); false when they could not be read (send it again later). */
  readonly refused: boolean;

  constructor(readonly error: DeliveryError) {
    super(error.message);
    this.refused = error instanceof ValidationError || isNotFound(error);
  }
}

/** The names of an address as a row gives them, and the column each came from. */
interface Names {
  city: { value: string; column: string };
  district: { value: string; column: string };
  zone?: { value: string; column: string } | undefined;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** The names to resolve in `address`, or undefined when it gives its district by id (or names none). */
function namesOf(address: Record<string, unknown>): Names | undefined {
  if (text(address['districtId']) !== undefined) return undefined;
  const district = text(address['districtName']) ?? text(address['district']);
  const city = text(address['city']) ?? text(address['cityId']);
  if (district === undefined || city === undefined) return undefined;
  const zone = text(address['zoneId']) ?? text(address['zone']);
  return {
    city: { value: city, column: text(address['city']) !== undefined ? 'city' : 'cityId' },
    district: { value: district, column: text(address['districtName']) !== undefined ? 'districtName' : 'district' },
    zone: zone === undefined ? undefined : { value: zone, column: text(address['zoneId']) !== undefined ? 'zoneId' : 'zone' },
  };
}

/** ` did you mean Zamalek?` when the closest place is a near miss of `given` (a few letters off), in English or Arabic. */
function likely(given: string, candidates: readonly PlaceCandidate[]): string | undefined {
  const [best] = candidates;
  if (best === undefined) return undefined;
  const near = [best.name, best.nameAr].some(
    (name) => name !== undefined && editDistance(given.toLowerCase(), name.toLowerCase()) <= Math.max(2, Math.floor(name.length / 3)),
  );
  return near ? best.name : undefined;
}

/** Resolves the place names of an import's rows, each place once. */
export class PlaceResolver {
  private readonly places = new Map<string, Promise<Place>>();

  /** `client` undefined: a dry run, offline; the names are then left for the service to judge. */
  constructor(private readonly client: DeliveryClient | undefined) {}

  /** Whether `order` names a place by name: a dry run offline cannot check it. */
  static namesPlaces(order: unknown): boolean {
    return FIELDS.some((field) => {
      const address = (order as Record<string, unknown> | null)?.[field];
      return typeof address === 'object' && address !== null && namesOf(address as Record<string, unknown>) !== undefined;
    });
  }

  /** `order` with a stand-in district id where it names places, for a dry run's offline check of the rest of it. */
  static standIn(order: unknown): unknown {
    const copy = { ...(order as Record<string, unknown>) };
    for (const field of FIELDS) {
      const address = copy[field];
      if (typeof address !== 'object' || address === null || namesOf(address as Record<string, unknown>) === undefined) continue;
      const { districtName: _name, district: _district, cityId: _cityId, ...rest } = address as Record<string, unknown>;
      copy[field] = { ...rest, districtId: 'resolved-when-sent' };
    }
    return copy;
  }

  /**
   * `order` with each address that names its district resolved to its ids; the order itself when
   * none does. Throws a {@link PlaceError} for a name the lists do not have, or a lookup that failed.
   */
  async resolve(order: unknown): Promise<unknown> {
    if (this.client === undefined || typeof order !== 'object' || order === null) return order;
    let resolved = order as Record<string, unknown>;
    for (const field of FIELDS) {
      const address = resolved[field];
      if (typeof address !== 'object' || address === null || Array.isArray(address)) continue;
      const names = namesOf(address as Record<string, unknown>);
      if (names === undefined) continue;
      const place = await this.place(field, names);
      const {
        city: _city,
        cityId: _cityId,
        districtName: _districtName,
        district: _district,
        zone: _zone,
        zoneId: _zoneId,
        ...lines
      } = address as Record<string, unknown>;
      resolved = { ...resolved, [field]: { ...lines, ...place } };
    }
    return resolved;
  }

  private place(field: AddressField, names: Names): Promise<Place> {
    const key = JSON.stringify([field, names.city.value, names.district.value, names.zone?.value]);
    let place = this.places.get(key);
    if (place === undefined) {
      place = this.lookUp(field, names);
      // Kept, failures too: the rows naming the place fail alike, without asking the lists again for each.
      place.catch(() => {});
      this.places.set(key, place);
    }
    return place;
  }

  private async lookUp(field: AddressField, names: Names): Promise<Place> {
    try {
      // The location alone: the lines are each row's, checked with its order. The stand-in line only passes resolveAddress's own check of them.
      const address = await (this.client as DeliveryClient).lookup.resolveAddress({
        city: names.city.value,
        district: names.district.value,
        ...(names.zone === undefined ? {} : { zone: names.zone.value }),
        firstLine: 'resolved by name',
        for: field,
      });
      return { city: address.city as string, districtId: address.districtId, ...(address.zoneId ? { zoneId: address.zoneId } : {}) };
    } catch (error) {
      throw new PlaceError(refusal(field, names, error));
    }
  }
}

/**
 * The error a row is refused with: the lookup's class and errorCode, its message naming the row's
 * column (`dropOffAddress.districtName: ...`) and, for a name the lists do not have, the likely one.
 */
function refusal(field: AddressField, names: Names, error: unknown): DeliveryError {
  if (!(error instanceof ValidationError) && !isNotFound(error)) {
    // The lists could not be read (a failing service): the row is not sent, said as the lookup's error.
    return error instanceof DeliveryError ? error : new DeliveryError(`${field}: its place could not be looked up`, { cause: error });
  }
  const level = error instanceof CityNotFoundError ? 'city' : error instanceof ZoneNotFoundError ? 'zone' : 'district';
  const given = names[level] ?? names.district;
  const path = [field, given.column];
  const said = error.issues[0]?.message ?? error.message;
  if (!isNotFound(error)) {
    // Not served there, or a district of several zones: the lookup's own words, at the row's column.
    const issues = [{ path, message: said }];
    const subject = error.message.split(':')[0] ?? 'Invalid address';
    return error instanceof AddressNotServedError
      ? new AddressNotServedError(issues, { subject, availability: error.availability, place: error.place })
      : new ValidationError(issues, { subject });
  }
  const guess = likely(given.value, error.candidates);
  const message = guess === undefined ? said : `${error.unmatched ?? said}: did you mean ${guess}?`;
  return createCodedError(error.errorCode, {
    source: 'client',
    message: `${formatPath(path)}: ${message}`,
    issues: [{ path, message, errorCode: error.errorCode }],
    candidates: error.candidates,
  });
}

const isNotFound = (error: unknown): error is CityNotFoundError | DistrictNotFoundError | ZoneNotFoundError =>
  error instanceof CityNotFoundError || error instanceof DistrictNotFoundError || error instanceof ZoneNotFoundError;
