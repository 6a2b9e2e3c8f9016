/**
 * `delivery-sdk/functions`: every operation as a standalone function over a {@link DeliveryCore},
 * so a bundler keeps only the ones a page calls. `DeliveryClient`'s namespaces delegate to
 * these functions: one implementation, two ways to call it. Names are verb-noun:
 * `client.deliveries.create` is `createDelivery`, `client.lookup.cities` is `listCities`.
 *
 * @module delivery-sdk/functions
 */
export { DeliveryCore } from './core.js';
export { type CreatedDelivery, createDelivery } from './deliveries.js';
export {
  type BulkChunkOutcome,
  type BulkCreateOptions,
  type BulkCreateResult,
  type BulkInput,
  type BulkProgress,
  createBulkDeliveries,
  streamBulkDeliveries,
} from './bulk.js';
export {
  type City,
  type CityDistricts,
  type DistrictEntry,
  type Zone,
  clearLookupCache,
  listAllDistricts,
  listCities,
  listDistricts,
  listZones,
  resolveAddress,
} from './lookup.js';
export { type BusinessAdmin, type VerificationResult, confirmEmail, confirmPhone, registerBusinessAdmin, verifyPhone } from './users.js';
export { type Business, type PickupLocation, createBusiness, updatePickupLocations } from './businesses.js';
export {
  type BulkyCreatedOrder,
  type CreateReturnOptions,
  type OriginalFulfillment,
  createBulkyFulfillment,
  createFulfillmentOrder,
  createFulfillmentReturn,
} from './fulfillment.js';
export { getDelivery, searchDeliveries, listDeliveries, findDeliveryByReference, type DeliverySearchFilter, type DeliveryPage } from './delivery-reads.js';
export type { DeliveryRecord, DeliveryAddressRecord, NamedPlace, ReceiverRecord, TimelineStep } from './delivery-record.js';
export { updateDelivery, terminateDelivery, EDITABLE_STATES, type DeliveryChangeResult, type DeliveryTarget } from './delivery-changes.js';
export { getAirwayBills, MAX_AIRWAY_BILLS, type AirwayBillOptions } from './airway-bills.js';
export {
  createPickup,
  getPickup,
  listPickups,
  updatePickup,
  deletePickup,
  listPickupDates,
  type Pickup,
  type PickupList,
  type PickupListQuery,
  type PickupDatesQuery,
} from './pickups.js';
export { listPickupLocations, type PickupLocationRecord } from './pickup-locations.js';
export { calculatePrice, type PriceQuote, type Amount } from './pricing.js';
export { resolveBulkTrackingNumbers, type ResolvedBulkResult, type ResolveTrackingNumbersOptions, type UnresolvedBulkOrder } from './bulk-recovery.js';
