/**
 * The shape of `DeliveryClient`: its namespaces, in the order it shows them, and the chunks their
 * code is loaded in. Each operation declares itself beside its code in `functions/<namespace>/`
 * (an `endpoint()` call of functions/endpoint.ts, or a helper function tagged `@operation`),
 * naming its namespace, method and chunk;
 * `npm run generate` (scripts/operations.ts) writes from those declarations and this table the
 * namespace classes (src/namespaces/), the `delivery-sdk/functions` entry, the client's namespace
 * properties and docs/endpoints.md. Nothing imports this file at run time.
 */

/** Each namespace of the client, with the sentence its hover opens with (the generator adds the list of its methods). */
export const NAMESPACES = {
  lookup: 'The public lookup lists (no API key needed), cached per client, and `resolveAddress`, which turns place names into the ids orders need.',
  users: 'Registration of the business admin and its confirmations (public endpoints).',
  businesses: 'The business and its pickup locations as the spec sets them up.',
  deliveries: 'Orders of every type, one at a time or in bulk, and everything after their creation: look them up, change, cancel, print, track.',
  fulfillment: "Fulfillment orders, shipped from your stock in the service's warehouses (`FXF_SEND`), and customer returns of them (`CUSTOMER_RETURN_PICKUP`).",
  pickups: 'Pickup requests: a courier booked to collect parcels from a pickup location.',
  pickupLocations: "The business's pickup locations (warehouses): the `businessLocationId` of orders and pickups.",
  pricing: 'Fee quotes.',
} as const;

export type NamespaceName = keyof typeof NAMESPACES;

/**
 * The code a page loads on a namespace's first call of a kind: a checkout that creates orders
 * loads `create`, not the reads after creation. `core` is loaded with the client (synchronous
 * helpers only).
 */
export const CHUNKS = {
  core: 'Loaded with the client: synchronous helpers that send nothing',
  lookup: 'The lookup lists',
  resolveAddress: 'Address resolution, with the lists it reads: a page that only lists cities leaves its name matching out',
  users: 'Registration',
  businesses: 'The business set-up',
  create: 'One order created: what a checkout page calls',
  bulk: 'Bulk uploads',
  afterCreate: 'The calls a merchant makes after creation, together: a chunk each would cost a page a few hundred bytes apiece',
  fulfillment: 'Fulfillment orders',
  pickups: 'Pickup requests',
  pickupLocations: 'Pickup locations',
  pricing: 'Fee quotes',
} as const;

export type ChunkName = keyof typeof CHUNKS;
