/**
 * `delivery-sdk/testing`: an offline sandbox that behaves like the Delivery Service API, for your
 * own tests. Loads and type-checks without msw, and loads without Node built-ins (`listen()` needs
 * Node). msw's handlers come from `delivery-sdk/testing/msw`.
 *
 * @module delivery-sdk/testing
 */

export type { SandboxRequest } from './activity.js';
export { SandboxError } from './errors.js';
export { FAULT_KINDS, type FaultKind, type FaultOptions, type FaultRule, type InjectedFault } from './faults.js';
export { SCENARIOS, type ScenarioName } from './flows.js';
export { SANDBOX_UPLOAD_HOST } from './order-rules.js';
export { createSandbox } from './sandbox.js';
export type {
  Sandbox,
  SandboxMerchant,
  SandboxMerchantOptions,
  SandboxOptions,
  SandboxOrder,
  SandboxStateEvent,
  SandboxWebhookConfig,
} from './sandbox-api.js';
export { SANDBOX_COUNTRY_IDS, SANDBOX_STREET_CODES } from './seed.js';
export type { ListenOptions, SandboxServer } from './server.js';
export type { AdvanceOptions } from './state-engine.js';
export type { SandboxWebhookBody, WebhookAttempt, WebhookDelivery, WebhookRetryOptions } from './webhook-dispatch.js';
