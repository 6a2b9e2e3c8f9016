/**
 * The rules of the inputs the SDK checks, as JSON Schema for the MCP tools: each input type by
 * the zod schema that checks it (src/schemas/), turned into JSON Schema by z.toJSONSchema. What
 * zod cannot say of a rule of its own (a predicate: `cod <= 30000`) the rule states beside it
 * (`codedRule(..., { maximum: COD_LIMIT })`, src/schemas/fields.ts), and the conversion adds it.
 *
 * A type is listed here once, by its name; wherever it stands in a parameter (an order in a bulk
 * upload's list, an address in an order), its schema is the SDK's check. The reader refuses an
 * endpoint whose checked input has no type listed here (json-schema.ts, read.ts).
 */
import * as z from 'zod';
import {
  basicBusinessSchema,
  confirmEmailSchema,
  confirmPhoneSchema,
  marketplaceBusinessSchema,
  registerBusinessAdminSchema,
  verifyPhoneSchema,
} from '../../src/schemas/account.js';
import { pickupLocationShape } from '../../src/schemas/address.js';
import {
  changesSchema,
  pickupChangesSchema,
  pickupLocationChangesSchema,
  pickupLocationSchema,
  pickupSchema,
  priceQuerySchema,
} from '../../src/schemas/after-create.js';
import { object } from '../../src/schemas/fields.js';
import {
  cashCollectionSchema,
  customerReturnPickupSchema,
  deliverSchema,
  exchangeSchema,
  fulfillmentReturnSchema,
  fulfillmentSendSchema,
} from '../../src/schemas/order.js';
import type { JsonSchema } from './descriptor.js';

/** Each input type the SDK checks, by its name, with the schema that checks it. */
const CHECKED_TYPES: Readonly<Record<string, () => z.core.$ZodType>> = {
  DeliverOrder: deliverSchema,
  CashCollectionOrder: cashCollectionSchema,
  CustomerReturnPickupOrder: customerReturnPickupSchema,
  ExchangeOrder: exchangeSchema,
  FulfillmentSendOrder: fulfillmentSendSchema,
  FulfillmentReturnOrder: fulfillmentReturnSchema,
  // Without the order read first, a change of cod is held to the limits both ways.
  DeliveryChanges: () => changesSchema(undefined),
  PickupInput: pickupSchema,
  PickupChanges: pickupChangesSchema,
  PickupLocationInput: pickupLocationSchema,
  // One location of a business update (the list's own rule, one at least, is the reader's to state: the list has no name).
  PickupLocationEntry: () => object(pickupLocationShape()),
  PickupLocationChanges: pickupLocationChangesSchema,
  PriceQuery: priceQuerySchema,
  BasicBusinessInput: basicBusinessSchema,
  MarketplaceBusinessInput: marketplaceBusinessSchema,
  RegisterBusinessAdminInput: registerBusinessAdminSchema,
  VerifyPhoneInput: verifyPhoneSchema,
  ConfirmPhoneInput: confirmPhoneSchema,
  ConfirmEmailInput: confirmEmailSchema,
};

const converted = new Map<string, JsonSchema>();

/** The rules of the input type `name` as JSON Schema (draft-07), or undefined when the SDK has no schema of it. */
export function rulesOf(name: string): JsonSchema | undefined {
  const build = CHECKED_TYPES[name];
  if (build === undefined) return undefined;
  let schema = converted.get(name);
  if (schema === undefined) {
    schema = tidy(
      z.toJSONSchema(build(), {
        target: 'draft-7',
        // What is checked is what is given: an input, before any rewrite (phone digits) the check makes.
        io: 'input',
        // A check zod cannot state (a predicate) is left to the schema it states beside it.
        unrepresentable: 'any',
        override: ({ zodSchema, jsonSchema }) => {
          for (const check of (zodSchema as z.core.$ZodType)._zod.def.checks ?? []) {
            const stated = (check._zod.def as { jsonSchema?: JsonSchema }).jsonSchema;
            if (stated !== undefined) state(jsonSchema as JsonSchema, stated);
          }
        },
      }) as JsonSchema,
    ) as JsonSchema;
    converted.set(name, schema);
  }
  return schema;
}

/** Adds what a rule states to a schema that may say some of it already: required fields add up, another keyword said twice must hold both times. */
function state(schema: JsonSchema, stated: JsonSchema): void {
  for (const [keyword, value] of Object.entries(stated)) {
    if (!(keyword in schema)) schema[keyword] = value;
    else if (keyword === 'required') schema[keyword] = [...new Set([...(schema[keyword] as string[]), ...(value as string[])])];
    else schema['allOf'] = [...((schema['allOf'] as JsonSchema[] | undefined) ?? []), { [keyword]: value }];
  }
}

/** zod's output made plain: no `$schema` (the tool's schema has its own), no empty `additionalProperties` (anything is the default). */
function tidy(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tidy);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === '$schema') continue;
    if (keyword === 'additionalProperties' && value !== null && typeof value === 'object' && Object.keys(value).length === 0) continue;
    out[keyword] = keyword === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([name, inner]) => [name, tidy(inner)])) : tidy(value);
  }
  return out;
}
