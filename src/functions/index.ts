/**
 * `delivery-sdk/functions`: every operation as a standalone function over a {@link DeliveryCore},
 * so a bundler keeps only the ones a page calls. `DeliveryClient`'s namespaces delegate to
 * these functions: one implementation, two ways to call it. Names are verb-noun:
 * `client.deliveries.create` is `createDelivery`, `client.lookup.cities` is `listCities`.
 *
 * @module delivery-sdk/functions
 */

export { EDITABLE_STATES, MAX_AIRWAY_BILLS } from '../catalogue/limits.js';
export {
  type AirwayBillFile,
  type AirwayBillOptions,
  type AirwayBillTarget,
  getAirwayBillFiles,
  getAirwayBills,
} from './airway-bills.js';
export {
  type BulkChunkOutcome,
  type BulkCreateOptions,
  type BulkCreateResult,
  type BulkInput,
  type BulkProgress,
  type BulkStreamOptions,
  createBulkDeliveries,
  streamBulkDeliveries,
} from './bulk.js';
export { type ResolvedBulkResult, type ResolveTrackingNumbersOptions, resolveBulkTrackingNumbers, type UnresolvedBulkOrder } from './bulk-recovery.js';
export { type Business, createBusiness, type PickupLocation, updatePickupLocations } from './businesses.js';
export { type CustomerHistory, customerHistory } from './customer-history.js';
export { type CreatedDelivery, createDelivery } from './deliveries.js';
export { type DeliveryChangeResult, type DeliveryTarget, terminateDelivery, updateDelivery } from './delivery-changes.js';
export { clearLookupCache, DeliveryCore } from './delivery-core.js';
export {
  type DeliveryPage,
  type DeliverySearchFilter,
  findDeliveryByReference,
  getDelivery,
  listDeliveries,
  type PagedReadOptions,
  searchDeliveries,
} from './delivery-reads.js';
export type { DeliveryAddressRecord, DeliveryRecord, NamedPlace, ReceiverRecord, TimelineStep } from './delivery-record.js';
export {
  type BulkyCreatedOrder,
  type CreateReturnOptions,
  createBulkyFulfillment,
  createFulfillmentOrder,
  createFulfillmentReturn,
  type OriginalFulfillment,
} from './fulfillment.js';
export { listAllDistricts, listCities, listDistricts, listZones, resolveAddress } from './lookup.js';
export {
  createPickupLocation,
  deletePickupLocation,
  getPickupLocation,
  listPickupLocations,
  type PickupLocationRecord,
  setDefaultPickupLocation,
  updatePickupLocation,
} from './pickup-locations.js';
export {
  createPickup,
  deletePickup,
  getPickup,
  listPickupDates,
  listPickups,
  type Pickup,
  type PickupDatesQuery,
  type PickupList,
  type PickupListQuery,
  updatePickup,
} from './pickups.js';
export type { City, CityDistricts, DistrictEntry, Zone } from './places.js';
export { type Amount, calculatePrice, type PriceQuote } from './pricing.js';
export { type DeliveryTracking, type TrackingEvent, trackDelivery, type WaitForStateOptions, waitForDeliveryState } from './tracking.js';
export { type BusinessAdmin, confirmEmail, confirmPhone, registerBusinessAdmin, type VerificationResult, verifyPhone } from './users.js';
