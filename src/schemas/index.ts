// The public face of the order model: plain TypeScript types and the validators. The zod
// schemas stay internal, so no zod type reaches a user's declarations.
export type {
  AddressDetails,
  Address,
  AddressByDistrictName,
  OrderAddress,
  MarketplacePickupAddress,
  PickupLocationEntry,
} from './address.js';
export { validateAddress, validatePickupLocations } from './address.js';
export type {
  RegisterBusinessAdminInput,
  VerifyPhoneInput,
  ConfirmPhoneInput,
  ConfirmEmailInput,
  BasicBusinessInput,
  MarketplaceBusinessInput,
  CreateBusinessInput,
} from './account.js';
export { validateBusiness, validateRegisterBusinessAdmin, validateVerifyPhone, validateConfirmPhone, validateConfirmEmail } from './account.js';
export type {
  Contact,
  PackageType,
  PackageSize,
  PackageDetails,
  PackageSpecs,
  DeliveryImageEntry,
  DeliveryImages,
  GoodsInfo,
  EscrowInfo,
  FulfillmentItem,
  FulfillmentInfo,
} from './order-parts.js';
export type {
  OrderFields,
  PickupAddress,
  DeliverOrder,
  CashCollectionOrder,
  CustomerReturnPickupOrder,
  ExchangeOrder,
  FulfillmentSendOrder,
  FulfillmentReturnOrder,
  DeliveryOrder,
  FulfillmentOrder,
  OrderInput,
} from './order.js';
export { checkOrder, validateOrder, validateDeliveryOrder, validateFulfillmentOrder, validateFulfillmentReturn } from './order.js';
export { checkReturnItemsSubset } from './fulfillment-return.js';
export type { CheckResult } from './issues.js';
export { CLIENT_RULE_CODES, type ClientRuleCode, type ValidateOptions, type ValidateSetting } from './rules-off.js';
export {
  isPickupDate,
  PICKUP_TIME_SLOTS,
  type DeliveryChanges,
  type PickupDate,
  type PickupTimeSlot,
  type PickupContact,
  type PickupInput,
  type PickupChanges,
  type PriceQuery,
  type PricingSize,
} from './after-create.js';
