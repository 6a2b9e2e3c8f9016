/**
 * `delivery-sdk`: the client of the Delivery Service API ({@link DeliveryClient}), its typed
 * errors (one class per spec errorCode), the order model with its validators, and the state and
 * exception catalogues. Runs in Node 20+, browsers, edge workers, Deno and Bun.
 *
 * @module delivery-sdk
 */
export {
  type DashboardState,
  DeliveryState,
  DeliveryType,
  describeException,
  describeState,
  EDITABLE_STATES,
  type ExceptionCode,
  type ExceptionDescription,
  type ExceptionDirection,
  ExceptionReason,
  FAILED_ATTEMPT_TRANSITIONS,
  type FlowStep,
  type ForwardExceptionCode,
  ForwardExceptionReason,
  FULFILLMENT_FLOWS,
  FULFILLMENT_TRANSITIONS,
  FulfillmentType,
  isAfterFinalState,
  isFinalState,
  isKnownState,
  MAX_AIRWAY_BILLS,
  type ReturnExceptionCode,
  ReturnExceptionReason,
  STATES,
  type StateDescription,
  type StateInfo,
  type Transition,
  WebhookOrderType,
  webhookTypeOf,
} from './catalogue/index.js';
export { DeliveryClient, type RawRequest } from './client.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export type { HttpMethod, QueryValue } from './core/http.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { ClientHooks, DeliveryClientOptions, RequestOptions } from './core/options.js';
export type {
  AttemptTelemetry,
  BulkTelemetry,
  CallTelemetry,
  DeliveryTelemetry,
  TelemetryCallOutcome,
  TelemetryFailedOrder,
  TelemetryOperation,
  WebhookTarget,
  WebhookTelemetry,
  WebhookVerdict,
} from './core/telemetry.js';
export {
  type AccountErrorClassByCode,
  AccountErrorCode,
  AddressLocationRequiredError,
  AddressNotServedError,
  ApiError,
  type ApiErrorOptions,
  AuthenticationError,
  accountErrorCodeMeaning,
  BulkCreationError,
  BusinessLocationRequiredError,
  CityNotFoundError,
  CodedDeliveryError,
  type CodedErrorOptions,
  CodLimitExceededError,
  CodRequiredError,
  ConfigurationError,
  ConnectionError,
  CrpRefundCodOnlyError,
  createCodedError,
  DeliveryError,
  type DeliveryErrorFor,
  type DeliveryErrorOptions,
  DeliveryImagesRequiredError,
  DistrictNotFoundError,
  DuplicateOrderError,
  type ErrorClassByCode,
  ErrorCode,
  errorCodeMeaning,
  formatPath,
  InvalidDeliveryImageUrlError,
  InvalidRequestError,
  isDeliveryError,
  isPickupErrorCode,
  MixedDeliveryImageSourcesError,
  NotFoundError,
  OrderStateError,
  PagingError,
  PartialResultError,
  PermissionDeniedError,
  PickupErrorCode,
  PickupLocationInUseError,
  type PlaceCandidate,
  pickupErrorCodeMeaning,
  RateLimitError,
  RedirectError,
  RefundCodLimitExceededError,
  RequestAbortedError,
  type RequestSummary,
  ResponseShapeError,
  ResponseTooLargeError,
  ServerError,
  StreetCodeNotFoundError,
  SubscriptionRequiredError,
  TimeoutError,
  type UnservedPlace,
  ValidationError,
  type ValidationIssue,
  ZoneNotFoundError,
} from './errors/index.js';
export type { Business, PickupLocation } from './functions/businesses/setup.js';
export type { AirwayBillFile, AirwayBillFilesPartial, AirwayBillOptions, AirwayBillTarget } from './functions/deliveries/airway-bills.js';
export type {
  BulkChunkOutcome,
  BulkCreatedDelivery,
  BulkCreateOptions,
  BulkCreateResult,
  BulkFailure,
  BulkInput,
  BulkProgress,
  BulkStreamOptions,
} from './functions/deliveries/bulk/bulk.js';
export type { ResolvedBulkResult, ResolveTrackingNumbersOptions, UnresolvedBulkOrder } from './functions/deliveries/bulk/recovery.js';
export type { DeliveryChangeResult, DeliveryTarget } from './functions/deliveries/changes.js';
export type { CustomerHistory } from './functions/deliveries/customer-history.js';
export type { DeliveryPage, DeliverySearchFilter, PagedReadOptions } from './functions/deliveries/reads.js';
export type {
  CreatedDelivery,
  DeliveryAddressRecord,
  DeliveryRecord,
  NamedPlace,
  ReceiverRecord,
  TimelineStep,
} from './functions/deliveries/records.js';
export type { DeliveryTracking, TrackingEvent, WaitForStateOptions, WaitProgress } from './functions/deliveries/tracking.js';
export { type BulkyMergeGroup, previewBulkyMerge } from './functions/fulfillment/bulky-merge.js';
export type { BulkyCreatedOrder, CreateReturnOptions, OriginalFulfillment } from './functions/fulfillment/orders.js';
export { type Country, CountryId } from './functions/lookup/countries.js';
export type { City, CityDistricts, DistrictEntry, Zone } from './functions/lookup/places.js';
export type { AddressUse, ResolveAddressInput } from './functions/lookup/resolve-address.js';
export type { PickupLocationRecord } from './functions/pickup-locations/locations.js';
export type { Pickup, PickupDatesQuery, PickupList, PickupListQuery } from './functions/pickups/requests.js';
export type { Amount, PriceQuote } from './functions/pricing/calculator.js';
export type { BusinessAdmin, VerificationResult } from './functions/users/registration.js';
export { BusinessesNamespace } from './namespaces/businesses.js';
export { DeliveriesNamespace } from './namespaces/deliveries.js';
export { FulfillmentNamespace } from './namespaces/fulfillment.js';
export { LookupNamespace } from './namespaces/lookup.js';
export { PickupLocationsNamespace } from './namespaces/pickup-locations.js';
export { PickupsNamespace } from './namespaces/pickups.js';
export { PricingNamespace } from './namespaces/pricing.js';
export {
  BusinessesResource,
  DeliveriesResource,
  FulfillmentResource,
  LookupResource,
  PickupLocationsResource,
  PickupsResource,
  PricingResource,
  UsersResource,
} from './namespaces/released-names.js';
export { UsersNamespace } from './namespaces/users.js';
export {
  type Address,
  type AddressByDistrictName,
  type AddressDetails,
  type BasicBusinessInput,
  type CashCollectionOrder,
  type CheckResult,
  CLIENT_RULE_CODES,
  type ClientRuleCode,
  type ConfirmEmailInput,
  type ConfirmPhoneInput,
  type Contact,
  type CreateBusinessInput,
  type CustomerReturnPickupOrder,
  checkReturnItemsSubset,
  type DeliverOrder,
  type DeliveryChanges,
  type DeliveryImageEntry,
  type DeliveryImages,
  type DeliveryOrder,
  type EscrowInfo,
  type ExchangeOrder,
  type FulfillmentInfo,
  type FulfillmentItem,
  type FulfillmentOrder,
  type FulfillmentReturnOrder,
  type FulfillmentSendOrder,
  type GoodsInfo,
  isPickupDate,
  type MarketplaceBusinessInput,
  type MarketplacePickupAddress,
  type OrderAddress,
  type OrderFields,
  type OrderInput,
  type PackageDetails,
  type PackageSize,
  type PackageSpecs,
  type PackageType,
  PICKUP_TIME_SLOTS,
  type PickupAddress,
  type PickupChanges,
  type PickupContact,
  type PickupDate,
  type PickupInput,
  type PickupLocationChanges,
  type PickupLocationEntry,
  type PickupLocationInput,
  type PickupTimeSlot,
  type PriceQuery,
  type PricingSize,
  type RegisterBusinessAdminInput,
  type ValidateOptions,
  type ValidateSetting,
  type VerifyPhoneInput,
} from './schemas/index.js';
export { WebhookPayloadError } from './webhooks/errors.js';
