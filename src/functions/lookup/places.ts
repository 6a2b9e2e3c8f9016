// The records of the lookup lists, apart from the calls that read them (lookup.ts) and the
// address resolution that searches them (resolve-address.ts).

/**
 * A city of `lookup.cities`, as the service sends it (the spec does not show the record):
 * `{ _id, name, nameAr, code, alias, hub, sector, pickupAvailability, dropOffAvailability,
 * showAsDropOff, showAsPickup }`. Fields it adds are kept.
 */
export interface City {
  _id: string;
  /** The name to send as an address's `city`. */
  name: string;
  /** The name in Arabic. */
  nameAr?: string | undefined;
  /** The name in the local language, as some answers spell the Arabic name. */
  otherName?: string | undefined;
  /** Short code, e.g. `EG-01`. */
  code?: string | undefined;
  /** Another name the city goes by. */
  alias?: string | undefined;
  /** The hub that serves the city. */
  hub?: { _id: string; name: string; [field: string]: unknown } | undefined;
  sector?: number | undefined;
  /** Whether the service picks up anywhere in the city. */
  pickupAvailability?: boolean | undefined;
  /** Whether the service delivers anywhere in the city. */
  dropOffAvailability?: boolean | undefined;
  showAsDropOff?: boolean | undefined;
  showAsPickup?: boolean | undefined;
  [field: string]: unknown;
}

/** A zone of `lookup.zones`: `{ _id, name, nameAr, pickupAvailability, dropOffAvailability }`. */
export interface Zone {
  _id: string;
  name: string;
  /** The name in Arabic. */
  nameAr?: string | undefined;
  /** The name in the local language, as some answers spell the Arabic name. */
  otherName?: string | undefined;
  pickupAvailability?: boolean | undefined;
  dropOffAvailability?: boolean | undefined;
  [field: string]: unknown;
}

/** A district entry, as the spec's table lists it; fields the service adds are kept. */
export interface DistrictEntry {
  zoneId: string;
  zoneName: string;
  /** Zone name in the local language (Arabic). */
  zoneOtherName: string;
  districtId: string;
  districtName: string;
  /** District name in the local language (Arabic). */
  districtOtherName: string;
  /** Whether the service picks up from this district. */
  pickupAvailability: boolean;
  /** Whether the service delivers to this district. */
  dropOffAvailability: boolean;
  /** Who covers the district. */
  coverage: string;
  [field: string]: unknown;
}

/**
 * One city of `lookup.allDistricts` with its district entries, as the service answers
 * `GET /cities/getAllDistricts`. Fields it adds are kept.
 */
export interface CityDistricts {
  cityId: string;
  cityName: string;
  /** City name in the local language (Arabic). */
  cityOtherName?: string | undefined;
  cityCode?: string | undefined;
  /** Whether the service picks up anywhere in the city. */
  pickupAvailability?: boolean | undefined;
  /** Whether the service delivers anywhere in the city. */
  dropOffAvailability?: boolean | undefined;
  districts: DistrictEntry[];
  [field: string]: unknown;
}
