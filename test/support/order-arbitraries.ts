/** Generated orders for the property tests: valid ones of every type, the breakers of single rules, junk. */
import fc from 'fast-check';
import { canonicalPhone } from '../../src/schemas/predicates.js';
import { validOrders } from './orders.js';

export type Order = Record<string, unknown>;

// ---------------------------------------------------------------- valid orders

const text = fc.string({ maxLength: 20 });
const filled = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== '');
const firstLine = fc.string({ minLength: 6, maxLength: 40 }).filter((s) => s.trim().length > 5);
// Numbers and null as the service's PHP and Python SDKs send them.
const textOrNumber = fc.oneof(text, fc.nat(200), fc.constant(null));
const details = {
  secondLine: fc.oneof(text, fc.constant(null)),
  buildingNumber: textOrNumber,
  floor: textOrNumber,
  apartment: textOrNumber,
  isWorkAddress: fc.boolean(),
};

const firstFormat = fc.record({ districtId: filled, firstLine, city: text, zoneId: text, ...details }, { requiredKeys: ['districtId', 'firstLine'] });
const secondFormat = fc
  .record(
    { cityId: filled, districtName: filled, firstLine, city: filled, zoneId: filled, ...details },
    { requiredKeys: ['cityId', 'districtName', 'firstLine'] },
  )
  .filter((address) => 'city' in address || 'zoneId' in address);
const orderAddress = fc.oneof(firstFormat, secondFormat);
const marketplacePickup = fc.record({ city: filled, firstLine, zone: text, district: text, buildingNumber: text }, { requiredKeys: ['city', 'firstLine'] });
const pickupAddress = fc.oneof(orderAddress, marketplacePickup);

/** A package type as a user may write it, with what the SDK must send: the same, never respelled. */
const packageType = fc
  .oneof(fc.constantFrom('Parcel', 'Document', 'Light Bulky', 'Heavy Bulky', 'SMALL', 'small'), text)
  .map((written) => ({ written, sent: written }));
const size = fc.oneof(fc.constantFrom('SMALL', 'MEDIUM', 'LARGE', 'Small'), text);
/** A phone in the one form the SDK sends (\`canonicalPhone\`), so that a valid order is sent as written. */
const phone = fc.oneof(fc.stringMatching(/^\+?[0-9]{8,15}$/).map(canonicalPhone), fc.constantFrom('01012345678', '0223456789', '0501234567', '966501234567'));

const url = fc.webUrl({ withQueryParameters: true, withFragments: true });
const imageEntry = fc.record({ type: fc.constant('ALLOW_TO_OPEN_THE_PACKAGE'), images: fc.array(url, { minLength: 1, maxLength: 10 }) });
const images = fc.oneof(
  fc.constant({}),
  fc.record({ allowToOpenPackage: fc.boolean(), deliveryImages: fc.array(imageEntry, { minLength: 1, maxLength: 2 }) }),
  fc.record({ allowToOpenPackage: fc.constant(false) }),
);
const headerName = fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,16}$/).filter((name) => name !== '__proto__');
const headerValue = fc.string({ maxLength: 30 }).filter((value) => !/[\r\n\0]/.test(value));
const contact = fc.record({ firstName: text, lastName: text, phone, email: fc.oneof(text, fc.constant(null)) }, { requiredKeys: [] });

const common = fc.record(
  {
    specs: fc.record(
      { packageType, size, packageDetails: fc.record({ description: text, itemsCount: fc.nat(1000) }, { requiredKeys: [] }) },
      { requiredKeys: [] },
    ),
    notes: text,
    businessLocationId: text,
    receiver: contact,
    pickupLocationContact: contact,
    businessReference: text,
    webhookUrl: url,
    webhookCustomHeaders: fc.dictionary(headerName, headerValue, { maxKeys: 3 }),
    goodsInfo: fc.record({ amount: fc.double({ min: 0, max: 1e6, noNaN: true }), currency: fc.constant('EGP') }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);

const collected = fc.double({ min: 0, max: 30_000, noNaN: true });
const cashCollected = fc.double({ min: 0.01, max: 30_000, noNaN: true });
const refund = fc.double({ min: -30_000, max: 0, noNaN: true });
const items = fc.array(fc.record({ sku: filled, quantity: fc.integer({ min: 1, max: 1000 }), name: text }, { requiredKeys: ['sku', 'quantity'] }), {
  minLength: 1,
  maxLength: 4,
});

/** The fields that tell the types apart; cod is optional except on a Cash Collection. */
export const typeParts = {
  10: fc.record({ type: fc.constant(10), dropOffAddress: orderAddress, pickupAddress, cod: collected }, { requiredKeys: ['type', 'dropOffAddress'] }),
  15: fc.record({ type: fc.constant(15), pickupAddress, dropOffAddress: orderAddress, cod: cashCollected }, { requiredKeys: ['type', 'pickupAddress', 'cod'] }),
  25: fc.record({ type: fc.constant(25), pickupAddress, dropOffAddress: orderAddress, cod: refund }, { requiredKeys: ['type', 'pickupAddress'] }),
  30: fc.record({ type: fc.constant(30), dropOffAddress: orderAddress, pickupAddress, cod: collected }, { requiredKeys: ['type', 'dropOffAddress'] }),
  FXF_SEND: fc.record(
    { type: fc.constant('FXF_SEND'), fulfillmentInfo: fc.record({ items }), dropOffAddress: orderAddress, cod: collected },
    { requiredKeys: ['type', 'fulfillmentInfo'] },
  ),
  CUSTOMER_RETURN_PICKUP: fc.record(
    {
      type: fc.constant('CUSTOMER_RETURN_PICKUP'),
      fulfillmentInfo: fc.record({ items }),
      originalFulfillmentTrackingNumber: filled,
      pickupAddress,
      cod: refund,
    },
    { requiredKeys: ['type', 'fulfillmentInfo', 'originalFulfillmentTrackingNumber'] },
  ),
};

export const collectibleOf = (order: Order): number => (typeof order['cod'] === 'number' && order['cod'] > 0 ? order['cod'] : 0);

/** A valid order of a type `typed` generates, and what the SDK must send for it. */
export const validOrderFrom = (typed: fc.Arbitrary<Order>) =>
  fc.tuple(typed, common, images, fc.boolean(), fc.boolean()).chain(([typedPart, extra, imagePart, withEscrow, withUndefined]) => {
    const base: Order = { ...typedPart, ...extra, ...imagePart };
    const escrow = withEscrow
      ? fc.double({ min: 0, max: collectibleOf(base), noNaN: true }).map((amount) => ({ escrowInfo: { amountToBeCollected: amount } }))
      : fc.constant({});
    return escrow.map((escrowPart) => {
      const order: Order = { ...base, ...escrowPart };
      // An optional field given as undefined must not reach the body.
      if (withUndefined) Object.assign(order, { notes: undefined, receiver: { ...(order['receiver'] as object), phone: undefined } });
      return order;
    });
  });

/** A valid order of any type. */
export const validOrder = validOrderFrom(fc.oneof(...Object.values(typeParts)));

/** What the SDK sends for a valid order: as written, without undefined values. */
export function expectedBody(order: Order): Order {
  // As JSON carries it: no undefined values, -0 as 0.
  const body = JSON.parse(JSON.stringify(order)) as Order;
  const specs = body['specs'] as { packageType?: { sent: string } } | undefined;
  if (specs?.packageType !== undefined) specs.packageType = specs.packageType.sent as never;
  return body;
}

/** The order as a user writes it. */
export function written(order: Order): Order {
  const specs = order['specs'] as { packageType?: { written: string } } | undefined;
  return specs?.packageType === undefined ? order : { ...order, specs: { ...specs, packageType: specs.packageType.written } };
}

export type Expected = { code: number; path: Array<string | number> } | { code: undefined; path: Array<string | number> };
export interface Breaker {
  readonly rule: string;
  readonly types: ReadonlyArray<unknown>;
  /** Breaks the rule on a copy of `order`; `n` is a random positive number for the breaker to use. */
  readonly apply: (order: Order, n: number) => Expected;
}

export const ALL = [10, 15, 25, 30, 'FXF_SEND', 'CUSTOMER_RETURN_PICKUP'];
const COLLECTING = [10, 15, 30, 'FXF_SEND'];
const RETURNS = [25, 'CUSTOMER_RETURN_PICKUP'];
const addressKeyOf = (order: Order): string | undefined =>
  ({ 10: 'dropOffAddress', 30: 'dropOffAddress', 15: 'pickupAddress', 25: 'pickupAddress' })[String(order['type'])];
const ADDRESSED = [10, 15, 25, 30];
const validUrl = 'https://cdn.example-shop.com/a.jpg';

export const breakers: Breaker[] = [
  {
    rule: '3009: an address with none of city, zoneId, districtId',
    types: ADDRESSED,
    apply: (order) => {
      const key = addressKeyOf(order) as string;
      order[key] = { firstLine: 'Talaat Harb Street', cityId: 'c1', districtName: 'Zamalek' };
      return { code: 3009, path: [key] };
    },
  },
  {
    rule: 'firstLine of 5 characters or less',
    types: ADDRESSED,
    apply: (order, n) => {
      const key = addressKeyOf(order) as string;
      order[key] = { ...(order[key] as object), firstLine: ' '.repeat(n % 3) + 'abcde'.slice(0, 1 + (Math.floor(n) % 5)) };
      return { code: undefined, path: [key, 'firstLine'] };
    },
  },
  {
    rule: 'a required address is missing',
    types: ADDRESSED,
    apply: (order) => {
      const key = addressKeyOf(order) as string;
      delete order[key];
      return { code: undefined, path: [key] };
    },
  },
  {
    rule: '3006: a Cash Collection without cod',
    types: [15],
    apply: (order) => {
      delete order['cod'];
      delete order['escrowInfo'];
      return { code: 3006, path: ['cod'] };
    },
  },
  {
    rule: '3007: cod above 30000',
    types: COLLECTING,
    apply: (order, n) => {
      order['cod'] = 30_000 + n;
      return { code: 3007, path: ['cod'] };
    },
  },
  {
    rule: 'a negative cod on an order that collects',
    types: [10, 30, 'FXF_SEND'],
    apply: (order, n) => {
      order['cod'] = -Math.min(n, 30_000);
      delete order['escrowInfo'];
      return { code: undefined, path: ['cod'] };
    },
  },
  {
    rule: '3005: a positive cod on a return',
    types: RETURNS,
    apply: (order, n) => {
      order['cod'] = Math.min(n, 30_000);
      return { code: 3005, path: ['cod'] };
    },
  },
  {
    rule: '3008: a refund above 30000',
    types: RETURNS,
    apply: (order, n) => {
      order['cod'] = -30_000 - n;
      return { code: 3008, path: ['cod'] };
    },
  },
  {
    rule: 'cod that is not a finite number',
    types: ALL,
    apply: (order, n) => {
      order['cod'] = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, String(n)][Math.floor(n) % 4];
      delete order['escrowInfo'];
      return { code: undefined, path: ['cod'] };
    },
  },
  {
    rule: 'escrowInfo.amountToBeCollected above cod',
    types: ALL,
    apply: (order, n) => {
      order['escrowInfo'] = { amountToBeCollected: collectibleOf(order) + n };
      return { code: undefined, path: ['escrowInfo', 'amountToBeCollected'] };
    },
  },
  {
    rule: '2150: allowToOpenPackage without images',
    types: ALL,
    apply: (order) => {
      order['allowToOpenPackage'] = true;
      delete order['deliveryImages'];
      return { code: 2150, path: ['deliveryImages'] };
    },
  },
  {
    rule: 'more than 10 image URLs in an entry',
    types: ALL,
    apply: (order, n) => {
      order['deliveryImages'] = [{ type: 'ALLOW_TO_OPEN_THE_PACKAGE', images: Array.from({ length: 11 + (Math.floor(n) % 5) }, () => validUrl) }];
      return { code: undefined, path: ['deliveryImages', 0, 'images'] };
    },
  },
  {
    rule: '2151: an image URL that is not absolute http(s)',
    types: ALL,
    apply: (order, n) => {
      const bad = ['ftp://cdn.example.com/a.jpg', '/a.jpg', 'https://', 'cdn.example.com/a.jpg', 'https://cdn.example.com/a b.jpg'][Math.floor(n) % 5];
      order['deliveryImages'] = [{ type: 'ALLOW_TO_OPEN_THE_PACKAGE', images: [validUrl, bad] }];
      return { code: 2151, path: ['deliveryImages', 0, 'images', 1] };
    },
  },
  {
    rule: 'an image type other than ALLOW_TO_OPEN_THE_PACKAGE',
    types: ALL,
    apply: (order) => {
      order['deliveryImages'] = [{ type: 'PRODUCT', images: [validUrl] }];
      return { code: undefined, path: ['deliveryImages', 0, 'type'] };
    },
  },
  {
    rule: 'a webhookUrl that is not absolute http(s)',
    types: ALL,
    apply: (order) => {
      order['webhookUrl'] = '/hooks/delivery';
      return { code: undefined, path: ['webhookUrl'] };
    },
  },
  {
    rule: 'a webhook header name that is not a token',
    types: ALL,
    apply: (order) => {
      order['webhookCustomHeaders'] = { Authorization: 'secret', 'X Bad': 'a' };
      return { code: undefined, path: ['webhookCustomHeaders', 'X Bad'] };
    },
  },
  {
    rule: 'a webhook header value with CR, LF or NUL',
    types: ALL,
    apply: (order, n) => {
      order['webhookCustomHeaders'] = { Authorization: `secret${['\r', '\n', '\0'][Math.floor(n) % 3]}X-Injected: 1` };
      return { code: undefined, path: ['webhookCustomHeaders', 'Authorization'] };
    },
  },
  {
    rule: 'a packageType that is not a string',
    types: ALL,
    apply: (order, n) => {
      order['specs'] = { packageType: n };
      return { code: undefined, path: ['specs', 'packageType'] };
    },
  },
  {
    rule: 'a receiver phone that is not 8 to 15 digits',
    types: ALL,
    apply: (order, n) => {
      order['receiver'] = { phone: ['abc', '1234567', '1'.repeat(16), '+20 10x1234567', '++201012345678'][Math.floor(n) % 5] };
      return { code: undefined, path: ['receiver', 'phone'] };
    },
  },
  {
    rule: 'a fulfillment order without fulfillmentInfo',
    types: ['FXF_SEND', 'CUSTOMER_RETURN_PICKUP'],
    apply: (order) => {
      delete order['fulfillmentInfo'];
      return { code: undefined, path: ['fulfillmentInfo'] };
    },
  },
  {
    rule: 'a fulfillment item quantity below 1',
    types: ['FXF_SEND', 'CUSTOMER_RETURN_PICKUP'],
    apply: (order, n) => {
      order['fulfillmentInfo'] = { items: [{ sku: 'A', quantity: [0, -1, 0.5][Math.floor(n) % 3] }] };
      return { code: undefined, path: ['fulfillmentInfo', 'items', 0, 'quantity'] };
    },
  },
  {
    rule: 'a fulfillment return without originalFulfillmentTrackingNumber',
    types: ['CUSTOMER_RETURN_PICKUP'],
    apply: (order) => {
      delete order['originalFulfillmentTrackingNumber'];
      return { code: undefined, path: ['originalFulfillmentTrackingNumber'] };
    },
  },
];

/** A valid order of one of `types`: the breaker under test decides the type, so every breaker is applied on every run. */
export const validOrderOf = (types: ReadonlyArray<unknown>) => validOrderFrom(fc.oneof(...types.map((type) => typeParts[type as keyof typeof typeParts])));

const trickyKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'type',
    'cod',
    'firstLine',
    'images',
    'items',
    'autoCreatePickups',
    'profile',
  ),
  fc.string({ maxLength: 8 }),
);
export const junk = fc.anything({
  key: trickyKey,
  maxDepth: 4,
  maxKeys: 6,
  withNullPrototype: true,
  withObjectString: true,
  withBoxedValues: true,
  withSparseArray: true,
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
});
/** JSON as it arrives over the wire: `__proto__` is then an own key, not the prototype. */
export const pollutingJson = fc
  .constantFrom(
    '{"__proto__": {"polluted": true}}',
    '{"constructor": {"prototype": {"polluted": true}}}',
    '{"__proto__": {"polluted": true}, "type": 10, "cod": 1e400}',
    '[{"__proto__": {"polluted": true}, "districtId": "d", "firstLine": "123456"}]',
    '{"type": 15, "pickupAddress": {"__proto__": {"city": "Cairo"}, "firstLine": "123456"}}',
  )
  .map((json) => JSON.parse(json) as unknown);
/** The order's top-level fields the spec names. */
export const KNOWN_ORDER_FIELDS = [
  'cod',
  'dropOffAddress',
  'pickupAddress',
  'receiver',
  'specs',
  'deliveryImages',
  'allowToOpenPackage',
  'escrowInfo',
  'goodsInfo',
  'webhookUrl',
  'webhookCustomHeaders',
  'fulfillmentInfo',
  'originalFulfillmentTrackingNumber',
  'uniqueBusinessReference',
  'type',
] as const;

/** A valid order with one known field replaced by junk. */
export const nearlyValid = fc
  .tuple(fc.constantFrom(...Object.values(validOrders)), fc.constantFrom(...KNOWN_ORDER_FIELDS), fc.oneof(junk, pollutingJson))
  .map(([build, field, value]) => ({ ...build(), [field]: value }));

// ---------------------------------------------------------------- valid orders, mutated

/** Plain values a field may be set to: each type, the edges of the rules, `undefined` and `null`. */
const fieldValue = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    '',
    ' ',
    '      x',
    '123456',
    'Cairo',
    'https://cdn.example.com/a.jpg',
    'ftp://x',
    '01012345678',
    '٠١٠١٢٣٤٥٦٧٨',
    'X Bad',
    'ALLOW_TO_OPEN_THE_PACKAGE',
  ),
  fc.constantFrom(0, -0, 1, -1, 0.5, 30_000, 30_000.01, -30_000, -30_000.01, Number.NaN, Number.POSITIVE_INFINITY, true, false, [], {}),
  fc.jsonValue({ maxDepth: 2 }),
  fc.array(fc.constantFrom('https://cdn.example.com/a.jpg', '/a.jpg', 7), { maxLength: 12 }),
  fc
    .record({
      type: fc.constantFrom('ALLOW_TO_OPEN_THE_PACKAGE', 'X'),
      images: fc.array(fc.constantFrom('https://a.example/b.jpg', 'nope'), { maxLength: 11 }),
    })
    .map((entry) => [entry]),
);

/** Every path into an order's objects and arrays. */
function pathsOf(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [];
  const keys = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return keys.flatMap((key) => [[...prefix, key], ...pathsOf((value as Record<string | number, unknown>)[key], [...prefix, key])]);
}

/** A valid order with 1 to 3 values replaced, at paths it has or at known fields it may lack, or deleted. */
export const mutated = fc
  .tuple(validOrder, fc.array(fc.tuple(fc.nat(), fc.boolean(), fieldValue, fc.boolean()), { minLength: 1, maxLength: 3 }))
  .map(([order, changes]) => {
    const copy = structuredClone(written(order)) as Order;
    for (const [pick, atKnown, value, remove] of changes) {
      const paths = pathsOf(copy);
      const path =
        atKnown || paths.length === 0
          ? [KNOWN_ORDER_FIELDS[pick % KNOWN_ORDER_FIELDS.length] as string]
          : (paths[pick % paths.length] as Array<string | number>);
      let parent = copy as Record<string | number, unknown>;
      for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
      const last = path.at(-1) as string | number;
      if (remove && !Array.isArray(parent)) delete parent[last];
      else parent[last] = structuredClone(value);
    }
    return copy;
  });
