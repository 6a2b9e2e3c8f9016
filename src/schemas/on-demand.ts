/**
 * What the checking step (check.ts) loads, through its one `import('./on-demand.js')`, when an
 * input needs the schemas. A module of its own, not the schema modules themselves: a bundler that
 * splits makes every `import()` target an entry point, and a page that only sends valid orders
 * must not load zod at once.
 *
 * @internal
 */
export { checkBusiness, checkConfirmEmail, checkConfirmPhone, checkRegisterBusinessAdmin, checkVerifyPhone } from './account.js';
export { checkPickupLocationsUpdate, validateAddress } from './address.js';
export { checkChanges, checkPickup, checkPickupChanges, checkPickupLocation, checkPickupLocationChanges, checkPriceQuery } from './after-create.js';
export { checkBulkyOrders, checkFulfillmentReturnOf, checkOrderOf } from './order.js';
