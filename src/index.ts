/**
 * `delivery-sdk`: the client of the Delivery Service API ({@link DeliveryClient}), its typed
 * errors (one class per spec errorCode), the order model with its validators, and the state and
 * exception catalogues. Runs in Node 20+, browsers, edge workers, Deno and Bun.
 *
 * @module delivery-sdk
 */
export * from './catalogue/index.js';
export * from './errors/index.js';
export { DeliveryClient, type RawRequest } from './client.js';
export type { HttpMethod, QueryValue } from './core/http.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export type { ClientHooks } from './core/options.js';
export type { DeliveryClientOptions, RequestOptions } from './functions/options.js';
export type { Logger, LogLevel } from './core/logger.js';
export * from './schemas/index.js';
export { WebhookPayloadError } from './webhooks/errors.js';
export { CountryId, LookupResource, type Country, type City, type Zone, type DistrictEntry, type CityDistricts } from './resources/lookup.js';
export type { AddressUse, ResolveAddressInput } from './functions/resolve-address.js';
export { UsersResource, type BusinessAdmin, type VerificationResult } from './resources/users.js';
export { BusinessesResource, type Business, type PickupLocation } from './resources/businesses.js';
export { DeliveriesResource, type CreatedDelivery } from './resources/deliveries.js';
export { PickupsResource } from './resources/pickups.js';
export { PickupLocationsResource } from './resources/pickup-locations.js';
export { PricingResource } from './resources/pricing.js';
export type { DeliveryRecord, DeliveryAddressRecord, NamedPlace, ReceiverRecord, TimelineStep } from './functions/delivery-record.js';
export type { DeliverySearchFilter, DeliveryPage } from './functions/delivery-reads.js';
export { EDITABLE_STATES, type DeliveryChangeResult, type DeliveryTarget } from './functions/delivery-changes.js';
export { MAX_AIRWAY_BILLS, type AirwayBillOptions } from './functions/airway-bills.js';
export type { Pickup, PickupList, PickupListQuery, PickupDatesQuery } from './functions/pickups.js';
export type { PickupLocationRecord } from './functions/pickup-locations.js';
export type { PriceQuote, Amount } from './functions/pricing.js';
export type { ResolvedBulkResult, ResolveTrackingNumbersOptions, UnresolvedBulkOrder } from './functions/bulk-recovery.js';
export type { BulkChunkOutcome, BulkCreateOptions, BulkCreateResult, BulkCreatedDelivery, BulkFailure, BulkInput, BulkProgress } from './resources/bulk.js';
export { FulfillmentResource, type BulkyCreatedOrder, type CreateReturnOptions, type OriginalFulfillment } from './resources/fulfillment.js';
export { previewBulkyMerge, type BulkyMergeGroup } from './functions/bulky-merge.js';
