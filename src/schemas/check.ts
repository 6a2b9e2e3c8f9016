/**
 * The checks the endpoints name, one export each so a page ships only those of the calls it
 * makes. Each has a full verdict from the schemas, which load on first need through one
 * `import('./on-demand.js')` (a chunk of its own in a browser bundle: a page that only sends valid
 * orders never loads zod); orders also have a plain verdict (order-fast.ts) that needs none.
 * internal/input.ts runs them.
 */
import type { CheckResult, InputCheck } from '../internal/input.js';
import { onFirstUse } from '../internal/on-first-use.js';
import { type OrderFamily, orderTypesOf, sendsAsWritten } from './order-fast.js';

/** The schema modules, as `import('./on-demand.js')` gives them. */
export type Schemas = typeof import('./on-demand.js');

/** The checks' loader of the schemas (resolve-address.ts has its own, so a lookup page carries no order check). */
const schemas = onFirstUse(() => import('./on-demand.js'));

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
/** The checks of the schemas that take the input alone (and the rules to leave out), by name. */
type InputSchema = {
  [K in keyof Schemas]: Schemas[K] extends (wire: unknown, skip: ReadonlySet<number>) => CheckResult<unknown> ? K : never;
}[keyof Schemas];

/** The check of an input by the schema function `name` exports from on-demand.ts (`schemaCheck('checkPickup')`). */
/* @__NO_SIDE_EFFECTS__ */
export function schemaCheck(name: InputSchema): InputCheck {
  return {
    verdict: bySchemas(
      (loaded, wire, skip): CheckResult<unknown> => (loaded[name] as (wire: unknown, skip: ReadonlySet<number>) => CheckResult<unknown>)(wire, skip),
    ),
  };
}

/** `typeCode`: the order's type when known, for its cod rule. */
export const changesCheck = (typeCode: unknown): InputCheck => ({ verdict: bySchemas((loaded, wire, skip) => loaded.checkChanges(wire, typeCode, skip)) });
