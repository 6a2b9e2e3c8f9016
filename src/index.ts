export * from './catalogue/index.js';
export * from './errors/index.js';
export { DeliveryClient, type RawRequest } from './client.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export type { ClientHooks, DeliveryClientOptions, RequestOptions } from './core/config.js';
export type { Logger, LogLevel } from './core/logger.js';
export * from './schemas/index.js';
export { WebhookPayloadError } from './webhooks/errors.js';
