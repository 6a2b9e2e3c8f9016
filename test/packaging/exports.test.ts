// The runtime names each entry of the built package exports, pinned: adding one makes it public
// API, removing one breaks callers, so either is a deliberate change to this list (and to the
// CHANGELOG), never the side effect of exporting a helper from a module an entry re-exports.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, packageEntries, ROOT } from './packed-package.js';

const PUBLIC_EXPORTS: Readonly<Record<string, readonly string[]>> = {
  'delivery-sdk': [
    'APIPromise',
    'AddressLocationRequiredError',
    'AddressNotServedError',
    'ApiError',
    'AuthenticationError',
    'BulkCreationError',
    'BusinessLocationRequiredError',
    'BusinessesResource',
    'CLIENT_RULE_CODES',
    'CityNotFoundError',
    'CodLimitExceededError',
    'CodRequiredError',
    'CodedDeliveryError',
    'ConfigurationError',
    'ConnectionError',
    'CountryId',
    'CrpRefundCodOnlyError',
    'DeliveriesResource',
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
    'FulfillmentResource',
    'FulfillmentType',
    'InvalidDeliveryImageUrlError',
    'LookupResource',
    'MAX_AIRWAY_BILLS',
    'MixedDeliveryImageSourcesError',
    'NotFoundError',
    'OrderStateError',
    'PICKUP_TIME_SLOTS',
    'PagingError',
    'PermissionDeniedError',
    'PickupErrorCode',
    'PickupLocationsResource',
    'PickupsResource',
    'PricingResource',
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
    'TimeoutError',
    'UsersResource',
    'ValidationError',
    'WebhookOrderType',
    'WebhookPayloadError',
    'ZoneNotFoundError',
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
  ],
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
  'delivery-sdk/functions': [
    'DeliveryCore',
    'EDITABLE_STATES',
    'MAX_AIRWAY_BILLS',
    'calculatePrice',
    'clearLookupCache',
    'confirmEmail',
    'confirmPhone',
    'createBulkDeliveries',
    'createBulkyFulfillment',
    'createBusiness',
    'createDelivery',
    'createFulfillmentOrder',
    'createFulfillmentReturn',
    'createPickup',
    'deletePickup',
    'findDeliveryByReference',
    'getAirwayBills',
    'getDelivery',
    'getPickup',
    'listAllDistricts',
    'listCities',
    'listDeliveries',
    'listDistricts',
    'listPickupDates',
    'listPickupLocations',
    'listPickups',
    'listZones',
    'registerBusinessAdmin',
    'resolveAddress',
    'resolveBulkTrackingNumbers',
    'searchDeliveries',
    'streamBulkDeliveries',
    'terminateDelivery',
    'updateDelivery',
    'updatePickup',
    'updatePickupLocations',
    'verifyPhone',
  ],
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
  'delivery-sdk/webhooks/redis': ['DEFAULT_READY_TIMEOUT_MS', 'DEFAULT_TRACKER_TTL_SECONDS', 'TrackerStoreError', 'createRedisTrackerStore'],
  'delivery-sdk/testing': ['FAULT_KINDS', 'SANDBOX_COUNTRY_IDS', 'SANDBOX_STREET_CODES', 'SANDBOX_UPLOAD_HOST', 'SCENARIOS', 'SandboxError', 'createSandbox'],
  'delivery-sdk/testing/msw': ['sandboxHandlers'],
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
    it(`${entry.specifier} exports exactly its listed names, in ESM and in CommonJS`, async () => {
      const esm = (await import(pathToFileURL(join(ROOT, entry.esm)).href)) as Record<string, unknown>;
      const cjs = require(join(ROOT, entry.cjs)) as Record<string, unknown>;
      expect(Object.keys(esm).sort()).toEqual(PUBLIC_EXPORTS[entry.specifier]);
      expect(Object.keys(cjs).sort()).toEqual(PUBLIC_EXPORTS[entry.specifier]);
    });
  }
});
