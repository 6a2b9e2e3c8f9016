/**
 * The one checking step every call's input goes through before it is sent; `callApi()` (functions/call-api.ts) runs it.
 *
 * 1. The input is read once into its wire form, the JSON the request will carry: a getter, a
 *    Proxy or a `toJSON` runs there and nowhere after.
 * 2. The plain check (order-fast.ts, no zod) decides for input that passes and is sent as it is:
 *    its JSON text goes out unchanged.
 * 3. Anything else loads the schemas on demand (`import()`, a chunk of its own in a browser
 *    bundle), once per process, whose answer is the value to send (normalised: phone digits in
 *    ASCII, no `undefined`) or the typed error.
 *
 * Each endpoint names its input's check below; `validate` is resolved once per call into the
 * rules to leave out (skip-rules.ts), or `false`: then the input is only read into its wire form.
 */
import { type Wire, wireForm } from '../core/endpoint.js';
import { onFirstUse } from '../core/on-first-use.js';
import type { DeliveryError } from '../errors/base.js';
import type { CheckResult } from './issues.js';
import { type OrderFamily, orderTypesOf, sendsAsWritten } from './order-fast.js';
import type { Validation } from './skip-rules.js';

/** The schema modules, as `import('./on-demand.js')` gives them. */
type Schemas = typeof import('./on-demand.js');

const schemas = onFirstUse(() => import('./on-demand.js'));

/** The one on-demand loader of the schemas: nothing else imports them at run time. */
export const loadSchemas = (): Promise<Schemas> => schemas.load();

/** What an endpoint's input must satisfy. */
export interface InputCheck<T = unknown> {
  /** The zod-free check: true when the wire form passes every rule not in `skip` and is sent as it is. Never throws. */
  readonly plain?: ((wire: unknown, skip: ReadonlySet<number>) => boolean) | undefined;
  /** The schemas' verdict on the wire form: the value to send, or the typed error. */
  readonly schema: (schemas: Schemas, wire: unknown, skip: ReadonlySet<number>) => CheckResult<T>;
}

/** Input as it will be sent: the value checked and its JSON text (both undefined for no input). */
export interface Checked<T = unknown> {
  readonly value: T;
  readonly json: string | undefined;
}

/**
 * The checking step: `input` read once into its wire form, checked as `check` and `validation`
 * say. Synchronous unless the schemas must be loaded first. Throws (or rejects with) the typed
 * error; nothing of the caller's object is read after it returns.
 */
export function checkInput<T>(check: InputCheck<T> | undefined, input: unknown, validation: Validation): Checked<T> | Promise<Checked<T>> {
  const wire = wireForm(input);
  if (check === undefined || validation === false || check.plain?.(wire?.value, validation) === true) return asSent<T>(wire);
  const loaded = schemas.ready;
  if (loaded !== undefined) return bySchema(loaded, check, wire, validation);
  return schemas.load().then((arrived) => bySchema(arrived, check, wire, validation));
}

const asSent = <T>(wire: Wire | undefined): Checked<T> => ({ value: wire?.value as T, json: wire?.json });

function bySchema<T>(loaded: Schemas, check: InputCheck<T>, wire: Wire | undefined, skip: ReadonlySet<number>): Checked<T> {
  const result = check.schema(loaded, wire?.value, skip);
  if (!result.ok) throw result.error;
  return { value: result.value, json: JSON.stringify(result.value) };
}

/**
 * `check` run on the input's wire form, the JSON the SDK would send (see core/endpoint.ts): so a
 * validator answers for the bytes `create` sends. Input JSON cannot carry is a typed error.
 */
export function onWire<T>(input: unknown, check: (wire: unknown) => CheckResult<T>): CheckResult<T> {
  let wire: unknown;
  try {
    wire = wireForm(input)?.value;
  } catch (error) {
    return { ok: false, error: error as DeliveryError };
  }
  return check(wire);
}

/** An order of one family, `POST /deliveries` (and each order of a bulk upload). */
/* @__NO_SIDE_EFFECTS__ */
function orderCheckOf(family: OrderFamily): InputCheck {
  const types = orderTypesOf(family);
  return {
    plain: (wire, skip) => sendsAsWritten(wire, skip) && types.includes((wire as Record<string, unknown>)['type']),
    schema: (loaded, wire, skip) => loaded.checkOrderOf(family, wire, skip),
  };
}

// The checks each endpoint names. One export each, so a page ships only those of the calls it makes.

export const orderCheck = orderCheckOf('order');
export const fulfillmentCheck = orderCheckOf('fulfillment');
export const fulfillmentReturnCheck = orderCheckOf('fulfillmentReturn');
/** A fulfillment return whose items must be some or all of the original order's (spec rule 1). */
export const fulfillmentReturnCheckOf = (originalItems: readonly unknown[]): InputCheck => ({
  schema: (loaded, wire, skip) => loaded.checkFulfillmentReturnOf(wire, originalItems, skip),
});
export const bulkyCheck: InputCheck = { schema: (loaded, wire, skip) => loaded.checkBulkyOrders(wire, skip) };
/** `typeCode`: the order's type when known, for its cod rule. */
export const changesCheck = (typeCode: unknown): InputCheck => ({ schema: (loaded, wire, skip) => loaded.checkChanges(wire, typeCode, skip) });
export const pickupCheck: InputCheck = { schema: (loaded, wire, skip) => loaded.checkPickup(wire, skip) };
export const pickupChangesCheck: InputCheck = { schema: (loaded, wire, skip) => loaded.checkPickupChanges(wire, skip) };
export const priceQueryCheck: InputCheck = { schema: (loaded, wire, skip) => loaded.checkPriceQuery(wire, skip) };
export const businessCheck: InputCheck = { schema: (loaded, wire) => loaded.checkBusiness(wire) };
/** The body of a business update, `{ pickupAddress: [...] }`. */
export const pickupLocationsCheck: InputCheck = { schema: (loaded, wire) => loaded.checkPickupLocationsUpdate(wire) };
export const pickupLocationCheck: InputCheck = { schema: (loaded, wire) => loaded.checkPickupLocation(wire) };
export const pickupLocationChangesCheck: InputCheck = { schema: (loaded, wire) => loaded.checkPickupLocationChanges(wire) };
export const registerBusinessAdminCheck: InputCheck = { schema: (loaded, wire) => loaded.checkRegisterBusinessAdmin(wire) };
export const verifyPhoneCheck: InputCheck = { schema: (loaded, wire) => loaded.checkVerifyPhone(wire) };
export const confirmPhoneCheck: InputCheck = { schema: (loaded, wire) => loaded.checkConfirmPhone(wire) };
export const confirmEmailCheck: InputCheck = { schema: (loaded, wire) => loaded.checkConfirmEmail(wire) };
