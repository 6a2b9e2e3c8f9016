import { type DeliveryErrorOptions, ValidationError, type ValidationIssue } from './base.js';

/** A place of the lookup lists: a city, a zone or a district. */
export interface PlaceCandidate {
  /** Its id: a city's or zone's `_id`, a district's `districtId`. */
  id: string;
  /** Its name as the service spells it. */
  name: string;
  /** Its Arabic name, when the list has one. */
  nameAr?: string | undefined;
}

/** The place an {@link AddressNotServedError} is about. */
export interface UnservedPlace extends PlaceCandidate {
  /** Which level of the address is not served. */
  kind: 'city' | 'zone' | 'district';
}

/**
 * The place is real, but the service does not serve it the way the address needs: it does not
 * deliver there (`availability: 'dropOffAvailability'`) or pick up from there
 * (`'pickupAvailability'`). Not a typing mistake: a storefront says "we don't deliver there"
 * rather than "check the address". Thrown by `lookup.resolveAddress` before any order is sent
 * (`source: 'client'`), and for the service's refusal of an address it does not serve
 * (`source: 'server'`, the service's `ApiError` as `cause`). A `ValidationError` too, so code
 * that catches those still catches it.
 */
export class AddressNotServedError extends ValidationError {
  override name = 'AddressNotServedError';
  /** The availability of the lookup lists that is false for the place. */
  readonly availability: 'dropOffAvailability' | 'pickupAvailability';
  /** The city, zone or district that is not served; undefined when the service refused without naming it by id. */
  readonly place: UnservedPlace | undefined;

  constructor(
    issues: readonly ValidationIssue[],
    options: DeliveryErrorOptions & {
      subject?: string;
      availability: 'dropOffAvailability' | 'pickupAvailability';
      place?: UnservedPlace | undefined;
      source?: 'client' | 'server' | undefined;
    },
  ) {
    super(issues, options);
    this.availability = options.availability;
    this.place = options.place;
  }
}
