/**
 * What the SDK loads through `import('./on-demand.js')` when it needs the schemas (input the plain
 * check refused, account and address inputs). A module of its own, not the schema modules
 * themselves: a bundler that splits makes every `import()` target an entry point, and the main
 * entry re-exports the validators of those modules, which then made the page that only creates
 * orders load zod at once. Through this module, the schemas stay in the on-demand chunk.
 *
 * @internal
 */
export { validateBusiness, validateConfirmEmail, validateConfirmPhone, validateRegisterBusinessAdmin, validateVerifyPhone } from './account.js';
export { validateAddress, validatePickupLocations } from './address.js';
export { checkedChanges, checkedPickup, checkedPickupChanges, checkedPriceQuery } from './after-create.js';
/** @internal */
export { orderValidators } from './order.js';
