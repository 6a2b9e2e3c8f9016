// The public face of the order model: plain TypeScript types (the validators are the entry
// src/validation.ts). The zod schemas stay internal, so no zod type reaches a user's declarations.

export { CLIENT_RULE_CODES, type ClientRuleCode, type ValidateOptions, type ValidateSetting } from '../core/options.js';
export type { CheckResult } from '../internal/input.js';
export type {
  BasicBusinessInput,
  ConfirmEmailInput,
  ConfirmPhoneInput,
  CreateBusinessInput,
  MarketplaceBusinessInput,
  RegisterBusinessAdminInput,
  VerifyPhoneInput,
} from './account.js';
export type {
  Address,
  AddressByDistrictName,
  AddressDetails,
  MarketplacePickupAddress,
  OrderAddress,
  PickupLocationEntry,
} from './address.js';
export type {
  DeliveryChanges,
  PickupChanges,
  PickupContact,
  PickupInput,
  PickupLocationChanges,
  PickupLocationInput,
  PriceQuery,
  PricingSize,
} from './after-create.js';
export { checkReturnItemsSubset } from './fulfillment-return.js';
export type {
  CashCollectionOrder,
  CustomerReturnPickupOrder,
  DeliverOrder,
  DeliveryOrder,
  ExchangeOrder,
  FulfillmentOrder,
  FulfillmentReturnOrder,
  FulfillmentSendOrder,
  OrderFields,
  OrderInput,
  PickupAddress,
} from './order.js';
export type {
  Contact,
  DeliveryImageEntry,
  DeliveryImages,
  EscrowInfo,
  FulfillmentInfo,
  FulfillmentItem,
  GoodsInfo,
  PackageDetails,
  PackageSize,
  PackageSpecs,
  PackageType,
} from './order-parts.js';
export { isPickupDate, PICKUP_TIME_SLOTS, type PickupDate, type PickupTimeSlot } from './pickup-date.js';
