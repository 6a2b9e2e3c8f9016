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
export type { ClientHooks, DeliveryClientOptions, RequestOptions } from './core/config.js';
export type { Logger, LogLevel } from './core/logger.js';
export * from './schemas/index.js';
export { WebhookPayloadError } from './webhooks/errors.js';
export { CountryId, LookupResource, type Country, type City, type Zone, type DistrictEntry, type CityDistricts } from './resources/lookup.js';
export type { AddressUse, ResolveAddressInput } from './functions/resolve-address.js';
export { UsersResource, type BusinessAdmin, type VerificationResult } from './resources/users.js';
export { BusinessesResource, type Business, type PickupLocation } from './resources/businesses.js';
export { DeliveriesResource, type CreatedDelivery } from './resources/deliveries.js';
export type { BulkChunkOutcome, BulkCreateOptions, BulkCreateResult, BulkCreatedDelivery, BulkFailure, BulkInput, BulkProgress } from './resources/bulk.js';
export { FulfillmentResource, type BulkyCreatedOrder, type CreateReturnOptions, type OriginalFulfillment } from './resources/fulfillment.js';
export { previewBulkyMerge, type BulkyMergeGroup } from './functions/bulky-merge.js';
