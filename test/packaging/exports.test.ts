// The runtime names each entry of the built package exports, pinned: adding one makes it public
// API, removing one breaks callers, so either is a deliberate change to this list (and to the
// CHANGELOG), never the side effect of exporting a helper from a module an entry re-exports. The
// operations and the namespaces are the declarations' (src/functions/): declaring one is that
// deliberate change, so they are read from there, not listed again.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readOperations } from '../../scripts/operations.js';
import { NAMESPACES } from '../../src/functions/namespaces.js';
import { assertBuilt, packageEntries, ROOT } from './packed-package.js';

/** Each namespace's class, and its name as released in 0.1.0 (deprecated): `DeliveriesNamespace`, `DeliveriesResource`. */
const NAMESPACE_CLASSES = Object.keys(NAMESPACES).flatMap((namespace) => {
  const pascal = namespace.charAt(0).toUpperCase() + namespace.slice(1);
  return [`${pascal}Namespace`, `${pascal}Resource`];
});

const PUBLIC_EXPORTS: Readonly<Record<string, readonly string[]>> = {
  'delivery-sdk': [
    ...NAMESPACE_CLASSES,
    'APIPromise',
    'AccountErrorCode',
    'AddressLocationRequiredError',
    'AddressNotServedError',
    'ApiError',
    'AuthenticationError',
    'BulkCreationError',
    'BusinessLocationRequiredError',
    'CLIENT_RULE_CODES',
    'CityNotFoundError',
    'CodLimitExceededError',
    'CodRequiredError',
    'CodedDeliveryError',
    'ConfigurationError',
    'ConnectionError',
    'CountryId',
    'CrpRefundCodOnlyError',
    'DeliveryClient',
    'DeliveryError',
    'DeliveryImagesRequiredError',
    'DeliveryState',
    'DeliveryType',
    'DistrictNotFoundError',
    'DuplicateOrderError',
    'EDITABLE_STATES',
    'ErrorCode',
    'ExceptionReason',
    'FAILED_ATTEMPT_TRANSITIONS',
    'FULFILLMENT_FLOWS',
    'FULFILLMENT_TRANSITIONS',
    'ForwardExceptionReason',
    'FulfillmentType',
    'InvalidDeliveryImageUrlError',
    'InvalidRequestError',
    'MAX_AIRWAY_BILLS',
    'MixedDeliveryImageSourcesError',
    'NotFoundError',
    'OrderStateError',
    'PICKUP_TIME_SLOTS',
    'PagingError',
    'PartialResultError',
    'PermissionDeniedError',
    'PickupErrorCode',
    'PickupLocationInUseError',
    'RateLimitError',
    'RedirectError',
    'RefundCodLimitExceededError',
    'RequestAbortedError',
    'ResponseShapeError',
    'ResponseTooLargeError',
    'ReturnExceptionReason',
    'STATES',
    'ServerError',
    'StreetCodeNotFoundError',
    'SubscriptionRequiredError',
    'TimeoutError',
    'ValidationError',
    'WebhookOrderType',
    'WebhookPayloadError',
    'ZoneNotFoundError',
    'accountErrorCodeMeaning',
    'checkReturnItemsSubset',
    'createCodedError',
    'describeException',
    'describeState',
    'errorCodeMeaning',
    'formatPath',
    'isAfterFinalState',
    'isDeliveryError',
    'isFinalState',
    'isKnownState',
    'isPickupDate',
    'isPickupErrorCode',
    'pickupErrorCodeMeaning',
    'previewBulkyMerge',
    'webhookTypeOf',
  ].sort(),
  'delivery-sdk/validation': [
    'checkOrder',
    'validateAddress',
    'validateBusiness',
    'validateConfirmEmail',
    'validateConfirmPhone',
    'validateDeliveryOrder',
    'validateFulfillmentOrder',
    'validateFulfillmentReturn',
    'validateOrder',
    'validatePickupLocations',
    'validateRegisterBusinessAdmin',
    'validateVerifyPhone',
  ],
  // Every operation declared in src/functions/, and what the entry exports beside them.
  'delivery-sdk/functions': ['DeliveryCore', 'EDITABLE_STATES', 'MAX_AIRWAY_BILLS', ...readOperations().map((operation) => operation.fn)].sort(),
  'delivery-sdk/webhooks': [
    'ConfigurationError',
    'DEFAULT_MAX_WEBHOOK_BODY_BYTES',
    'DEFAULT_WEBHOOK_BODY_TIMEOUT_MS',
    'DeliveryError',
    'DeliveryState',
    'ExceptionReason',
    'FAILED_ATTEMPT_TRANSITIONS',
    'FULFILLMENT_FLOWS',
    'FULFILLMENT_TRANSITIONS',
    'ForwardExceptionReason',
    'ReturnExceptionReason',
    'STATES',
    'TrackerStoreError',
    'WebhookOrderType',
    'WebhookPayloadError',
    'createOrderTracker',
    'createWebhookHandler',
    'describeException',
    'describeState',
    'isAfterFinalState',
    'isFinalState',
    'isKnownState',
    'parseWebhookEvent',
    'verifyWebhookHeaders',
  ],
  'delivery-sdk/webhooks/node': ['DEFAULT_WEBHOOK_BODY_TIMEOUT_MS', 'createNodeWebhookHandler'],
  'delivery-sdk/mcp': ['TOOLS', 'createMcpServer'],
  'delivery-sdk/webhooks/redis': [
    'DEFAULT_MAX_EVENTS_PER_SCRIPT',
    'DEFAULT_READY_TIMEOUT_MS',
    'DEFAULT_TRACKER_TTL_SECONDS',
    'TrackerStoreError',
    'createRedisTrackerStore',
  ],
  'delivery-sdk/testing': ['FAULT_KINDS', 'SANDBOX_COUNTRY_IDS', 'SANDBOX_STREET_CODES', 'SANDBOX_UPLOAD_HOST', 'SCENARIOS', 'SandboxError', 'createSandbox'],
  'delivery-sdk/testing/msw': ['sandboxHandlers'],
  'delivery-sdk/opentelemetry': ['openTelemetry'],
};

const require = createRequire(import.meta.url);

beforeAll(() => {
  assertBuilt();
});

describe('the public exports of each entry', () => {
  it('pins every entry of the exports map', () => {
    expect(
      packageEntries()
        .map((entry) => entry.specifier)
        .sort(),
    ).toEqual(Object.keys(PUBLIC_EXPORTS).sort());
  });

  for (const entry of packageEntries()) {
    it(`${entry.specifier} exports exactly its listed names, in ESM, in the Node build and in CommonJS`, async () => {
      const esm = (await import(pathToFileURL(join(ROOT, entry.esm)).href)) as Record<string, unknown>;
      const node = (await import(pathToFileURL(join(ROOT, entry.node)).href)) as Record<string, unknown>;
      const cjs = require(join(ROOT, entry.cjs)) as Record<string, unknown>;
      expect(Object.keys(esm).sort()).toEqual(PUBLIC_EXPORTS[entry.specifier]);
      expect(Object.keys(node).sort()).toEqual(PUBLIC_EXPORTS[entry.specifier]);
      expect(Object.keys(cjs).sort()).toEqual(PUBLIC_EXPORTS[entry.specifier]);
    });
  }
});
