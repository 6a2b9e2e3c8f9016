/**
 * `delivery-sdk/validation`: the validators, which check an input against every rule of the spec
 * and return the body the SDK would send for it. An entry of its own because they carry the
 * schemas (zod): a page that only calls the client loads them on demand, for an input the plain
 * check refused, and never at once.
 *
 * @module delivery-sdk/validation
 */
export { validateBusiness, validateConfirmEmail, validateConfirmPhone, validateRegisterBusinessAdmin, validateVerifyPhone } from './schemas/account.js';
export { validateAddress, validatePickupLocations } from './schemas/address.js';
export { checkOrder, validateDeliveryOrder, validateFulfillmentOrder, validateFulfillmentReturn, validateOrder } from './schemas/order.js';
