/**
 * The checks the endpoints name, one export each so a page ships only those of the calls it
 * makes. Each has a full verdict from the schemas, which load on first need through one
 * `import('./on-demand.js')` (a chunk of its own in a browser bundle: a page that only sends valid
 * orders never loads zod); orders also have a plain verdict (order-fast.ts) that needs none.
 * core/input.ts runs them.
 */
import type { CheckResult, InputCheck } from '../core/input.js';
import { onFirstUse } from '../core/on-first-use.js';
import { type OrderFamily, orderTypesOf, sendsAsWritten } from './order-fast.js';

/** The schema modules, as `import('./on-demand.js')` gives them. */
export type Schemas = typeof import('./on-demand.js');

const schemas = onFirstUse(() => import('./on-demand.js'));

/** The one on-demand loader of the schemas: nothing else imports them at run time. */
export const loadSchemas = (): Promise<Schemas> => schemas.load();

/** A check whose verdict is the schemas': at once once they are loaded, else when they arrive. */
/* @__NO_SIDE_EFFECTS__ */
function bySchemas<T = unknown>(verdict: (loaded: Schemas, wire: unknown, skip: ReadonlySet<number>) => CheckResult<T>): InputCheck<T>['verdict'] {
  return (wire, skip) => {
    const loaded = schemas.ready;
    return loaded === undefined ? schemas.load().then((arrived) => verdict(arrived, wire, skip)) : verdict(loaded, wire, skip);
  };
}

/** An order of one family, `POST /deliveries` (and each order of a bulk upload). */
/* @__NO_SIDE_EFFECTS__ */
function orderCheckOf(family: OrderFamily): InputCheck {
  const types = orderTypesOf(family);
  return {
    plain: (wire, skip) => sendsAsWritten(wire, skip) && types.includes((wire as Record<string, unknown>)['type']),
    verdict: bySchemas((loaded, wire, skip) => loaded.checkOrderOf(family, wire, skip)),
  };
}

export const orderCheck = orderCheckOf('order');
export const fulfillmentCheck = orderCheckOf('fulfillment');
export const fulfillmentReturnCheck = orderCheckOf('fulfillmentReturn');
/** A fulfillment return whose items must be some or all of the original order's (spec rule 1). */
export const fulfillmentReturnCheckOf = (originalItems: readonly unknown[]): InputCheck => ({
  verdict: bySchemas((loaded, wire, skip) => loaded.checkFulfillmentReturnOf(wire, originalItems, skip)),
});
export const bulkyCheck: InputCheck = { verdict: bySchemas((loaded, wire, skip) => loaded.checkBulkyOrders(wire, skip)) };
/** `typeCode`: the order's type when known, for its cod rule. */
export const changesCheck = (typeCode: unknown): InputCheck => ({ verdict: bySchemas((loaded, wire, skip) => loaded.checkChanges(wire, typeCode, skip)) });
export const pickupCheck: InputCheck = { verdict: bySchemas((loaded, wire, skip) => loaded.checkPickup(wire, skip)) };
export const pickupChangesCheck: InputCheck = { verdict: bySchemas((loaded, wire, skip) => loaded.checkPickupChanges(wire, skip)) };
export const priceQueryCheck: InputCheck = { verdict: bySchemas((loaded, wire, skip) => loaded.checkPriceQuery(wire, skip)) };
export const businessCheck: InputCheck = { verdict: bySchemas((loaded, wire) => loaded.checkBusiness(wire)) };
/** The body of a business update, `{ pickupAddress: [...] }`. */
export const pickupLocationsCheck: InputCheck = { verdict: bySchemas((loaded, wire) => loaded.checkPickupLocationsUpdate(wire)) };
export const pickupLocationCheck: InputCheck = { verdict: bySchemas((loaded, wire) => loaded.checkPickupLocation(wire)) };
export const pickupLocationChangesCheck: InputCheck = { verdict: bySchemas((loaded, wire) => loaded.checkPickupLocationChanges(wire)) };
export const registerBusinessAdminCheck: InputCheck = { verdict: bySchemas((loaded, wire) => loaded.checkRegisterBusinessAdmin(wire)) };
export const verifyPhoneCheck: InputCheck = { verdict: bySchemas((loaded, wire) => loaded.checkVerifyPhone(wire)) };
export const confirmPhoneCheck: InputCheck = { verdict: bySchemas((loaded, wire) => loaded.checkConfirmPhone(wire)) };
export const confirmEmailCheck: InputCheck = { verdict: bySchemas((loaded, wire) => loaded.checkConfirmEmail(wire)) };
