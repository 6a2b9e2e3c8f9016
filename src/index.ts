/**
 * `delivery-sdk`: the client of the Delivery Service API ({@link DeliveryClient}), its typed
 * errors (one class per spec errorCode), the order model with its validators, and the state and
 * exception catalogues. Runs in Node 20+, browsers, edge workers, Deno and Bun.
 *
 * @module delivery-sdk
 */
export * from './catalogue/index.js';
export { DeliveryClient, type RawRequest } from './client.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export type { HttpMethod, QueryValue } from './core/http.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { ClientHooks } from './core/options.js';
export * from './errors/index.js';
export { type AirwayBillOptions, MAX_AIRWAY_BILLS } from './functions/airway-bills.js';
export type { ResolvedBulkResult, ResolveTrackingNumbersOptions, UnresolvedBulkOrder } from './functions/bulk-recovery.js';
export { type BulkyMergeGroup, previewBulkyMerge } from './functions/bulky-merge.js';
export { type DeliveryChangeResult, type DeliveryTarget, EDITABLE_STATES } from './functions/delivery-changes.js';
export type { DeliveryPage, DeliverySearchFilter } from './functions/delivery-reads.js';
export type { DeliveryAddressRecord, DeliveryRecord, NamedPlace, ReceiverRecord, TimelineStep } from './functions/delivery-record.js';
export type { DeliveryClientOptions, RequestOptions } from './functions/options.js';
export type { PickupLocationRecord } from './functions/pickup-locations.js';
export type { Pickup, PickupDatesQuery, PickupList, PickupListQuery } from './functions/pickups.js';
export type { Amount, PriceQuote } from './functions/pricing.js';
export type { AddressUse, ResolveAddressInput } from './functions/resolve-address.js';
export type { BulkChunkOutcome, BulkCreatedDelivery, BulkCreateOptions, BulkCreateResult, BulkFailure, BulkInput, BulkProgress } from './resources/bulk.js';
export { type Business, BusinessesResource, type PickupLocation } from './resources/businesses.js';
export { type CreatedDelivery, DeliveriesResource } from './resources/deliveries.js';
export { type BulkyCreatedOrder, type CreateReturnOptions, FulfillmentResource, type OriginalFulfillment } from './resources/fulfillment.js';
export { type City, type CityDistricts, type Country, CountryId, type DistrictEntry, LookupResource, type Zone } from './resources/lookup.js';
export { PickupLocationsResource } from './resources/pickup-locations.js';
export { PickupsResource } from './resources/pickups.js';
export { PricingResource } from './resources/pricing.js';
export { type BusinessAdmin, UsersResource, type VerificationResult } from './resources/users.js';
export * from './schemas/index.js';
export { WebhookPayloadError } from './webhooks/errors.js';
