/**
 * `delivery-sdk/functions`: every operation as a standalone function over a {@link DeliveryCore},
 * so a bundler keeps only the ones a page calls. `DeliveryClient`'s namespaces delegate to
 * these functions: one implementation, two ways to call it.
 *
 * @module delivery-sdk/functions
 */
export { DeliveryCore } from './core.js';
export { type CreatedDelivery, createDelivery } from './deliveries.js';
export { type BulkChunkOutcome, type BulkCreateOptions, type BulkInput, type BulkProgress, createBulkDeliveries, streamBulkDeliveries } from './bulk.js';
