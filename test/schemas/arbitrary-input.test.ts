// Property tests over every public input. test/schemas/order-properties.test.ts covers the order model
// (valid orders of every type, one rule broken at a time, junk into every validator); this file
// adds the account, business and address validators, wrong types in every field, the resource
// methods as a caller reaches them, the answers of the create calls, and webhook bodies.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CodedDeliveryError,
  ConfigurationError,
  checkReturnItemsSubset,
  DeliveryClient,
  DeliveryError,
  previewBulkyMerge,
  ResponseShapeError,
  ValidationError,
} from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';
import {
  checkOrder,
  validateAddress,
  validateBusiness,
  validateConfirmEmail,
  validateConfirmPhone,
  validateFulfillmentOrder,
  validateFulfillmentReturn,
  validateOrder,
  validatePickupLocations,
  validateRegisterBusinessAdmin,
  validateVerifyPhone,
} from '../../src/validation.js';
import { parseWebhookEvent, type WebhookEvent, WebhookPayloadError } from '../../src/webhooks/index.js';
import { validOrders } from '../support/orders.js';
import { propertySeed } from '../support/property-seed.js';
import { runs } from '../support/sizes.js';

type Path = ReadonlyArray<string | number>;
type Issue = { path: Path; message: string; errorCode?: number };
type Validator = (input: unknown) => unknown;

const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
/** Object.prototype as it was: no key added, none polluted. */
function expectPrototypeUntouched(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
}

/** The error `run` throws; fails unless it is a DeliveryError. */
function thrown(run: () => unknown): DeliveryError & { issues?: readonly Issue[] } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DeliveryError);
    return error as DeliveryError & { issues?: readonly Issue[] };
  }
  throw new Error('expected a DeliveryError, nothing was thrown');
}

function setAt(target: unknown, path: Path, value: unknown): void {
  let node = target as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
}

const isPrefix = (prefix: Path, path: Path): boolean => prefix.length <= path.length && prefix.every((part, i) => part === path[i]);

/** The error names the broken field, and blames nothing but that field (or the object holding it). */
function expectBlames(error: DeliveryError & { issues?: readonly Issue[] }, path: Path): void {
  const paths = (error.issues ?? []).map((issue) => issue.path);
  expect(paths, `${String(path)}: ${error.message}`).toContainEqual(path);
  for (const other of paths) expect(isPrefix(other, path), `${String(other)} blamed for ${String(path)}`).toBe(true);
}

// ------------------------------------------------------------------ generators

const filled = fc.string({ minLength: 1, maxLength: 16 }).filter((s) => s.trim() !== '');
const text = fc.string({ maxLength: 16 });
const line = (min: number) => fc.string({ minLength: min, maxLength: 40 }).filter((s) => s.trim().length >= min);
const email = fc
  .tuple(fc.stringMatching(/^[a-z0-9._+-]{1,12}$/), fc.stringMatching(/^[a-z0-9-]{1,12}$/), fc.stringMatching(/^[a-z]{2,6}$/))
  .map(([local, host, tld]) => `${local}@${host}.${tld}`);
/** Keys the SDK does not know: kept and sent as written. */
const extras = fc.dictionary(fc.stringMatching(/^x_[a-z]{1,6}$/), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 });

const registration = fc
  .tuple(
    fc.record(
      { email, password: filled, profile: fc.record({ firstName: filled, lastName: filled, phone: filled }), heardAboutUsFrom: text, countryId: filled },
      { requiredKeys: ['email', 'password', 'profile', 'countryId'] },
    ),
    extras,
  )
  .map(([known, extra]) => ({ ...extra, ...known }));
const basicBusiness = fc.record(
  {
    name: filled,
    salesChannel: text,
    website: text,
    industry: text,
    interestedInServices: fc.array(text, { maxLength: 3 }),
    autoCreatePickups: fc.constant(false),
  },
  { requiredKeys: ['name'] },
);
const marketplaceBusiness = fc.record(
  { name: filled, industry: text, monthlyShipmentVolume: text, salesChannel: fc.array(text, { maxLength: 3 }), autoCreatePickups: fc.constant(true) },
  { requiredKeys: ['name', 'autoCreatePickups'] },
);
const addressDetails = { secondLine: text, buildingNumber: text, floor: text, apartment: text, isWorkAddress: fc.boolean() };
const address = fc.oneof(
  fc.record({ districtId: filled, firstLine: line(6), city: text, zoneId: text, ...addressDetails }, { requiredKeys: ['districtId', 'firstLine'] }),
  fc.record(
    { cityId: filled, districtName: filled, firstLine: line(6), city: filled, ...addressDetails },
    { requiredKeys: ['cityId', 'districtName', 'firstLine', 'city'] },
  ),
);
const pickupLocation = fc.record(
  { locationName: text, districtId: filled, firstLine: line(5), buildingNumber: text, floor: text, apartment: text, secondLine: text },
  { requiredKeys: ['districtId', 'firstLine'] },
);

interface Subject {
  name: string;
  validate: Validator;
  valid: fc.Arbitrary<unknown>;
  /** Fields by path and the type they must have. */
  fields: (value: unknown) => Array<{ path: Path; type: 'text' | 'textOrNumber' | 'filled' | 'boolean' | 'object' | 'array' }>;
}

// Building, floor and apartment take numbers too, as the service's PHP and Python SDKs send them.
const TEXT_OR_NUMBER = new Set(['buildingNumber', 'floor', 'apartment']);
const stringFields = (value: unknown, names: string[], prefix: Path = []): Array<{ path: Path; type: 'text' | 'textOrNumber' }> =>
  names
    .filter((name) => (value as Record<string, unknown>)[name] !== undefined)
    .map((name) => ({ path: [...prefix, name], type: TEXT_OR_NUMBER.has(name) ? ('textOrNumber' as const) : ('text' as const) }));

const subjects: Subject[] = [
  {
    name: 'validateRegisterBusinessAdmin',
    validate: validateRegisterBusinessAdmin,
    valid: registration,
    fields: (value) => [
      { path: ['email'], type: 'filled' },
      { path: ['password'], type: 'filled' },
      { path: ['countryId'], type: 'filled' },
      { path: ['profile'], type: 'object' },
      { path: ['profile', 'firstName'], type: 'filled' },
      { path: ['profile', 'lastName'], type: 'filled' },
      { path: ['profile', 'phone'], type: 'filled' },
      ...stringFields(value, ['heardAboutUsFrom']),
    ],
  },
  { name: 'validateVerifyPhone', validate: validateVerifyPhone, valid: fc.record({ phone: filled }), fields: () => [{ path: ['phone'], type: 'filled' }] },
  {
    name: 'validateConfirmPhone',
    validate: validateConfirmPhone,
    valid: fc.record({ phone: filled, token: filled }),
    fields: () => [
      { path: ['phone'], type: 'filled' },
      { path: ['token'], type: 'filled' },
    ],
  },
  { name: 'validateConfirmEmail', validate: validateConfirmEmail, valid: fc.record({ token: filled }), fields: () => [{ path: ['token'], type: 'filled' }] },
  {
    name: 'validateBusiness (basic)',
    validate: validateBusiness,
    valid: basicBusiness,
    fields: (value) => [
      { path: ['name'], type: 'filled' },
      ...stringFields(value, ['salesChannel', 'website', 'industry']),
      ...((value as { interestedInServices?: unknown[] }).interestedInServices ?? []).map((_, i) => ({
        path: ['interestedInServices', i],
        type: 'text' as const,
      })),
      ...((value as { autoCreatePickups?: unknown }).autoCreatePickups === undefined ? [] : [{ path: ['autoCreatePickups'], type: 'boolean' as const }]),
    ],
  },
  {
    name: 'validateBusiness (marketplace)',
    validate: validateBusiness,
    valid: marketplaceBusiness,
    fields: (value) => [
      { path: ['name'], type: 'filled' },
      ...stringFields(value, ['industry', 'monthlyShipmentVolume']),
      ...((value as { salesChannel?: unknown[] }).salesChannel === undefined ? [] : [{ path: ['salesChannel'], type: 'array' as const }]),
    ],
  },
  {
    name: 'validateAddress',
    validate: validateAddress,
    valid: address,
    fields: (value) => [
      ...stringFields(value, ['secondLine', 'buildingNumber', 'floor', 'apartment', 'zoneId', 'firstLine']),
      ...((value as { isWorkAddress?: unknown }).isWorkAddress === undefined ? [] : [{ path: ['isWorkAddress'], type: 'boolean' as const }]),
    ],
  },
  {
    name: 'validatePickupLocations',
    validate: validatePickupLocations,
    valid: fc.array(pickupLocation, { minLength: 1, maxLength: 3 }),
    fields: (value) =>
      (value as unknown[]).flatMap((entry, i) => [
        { path: [i, 'districtId'], type: 'filled' as const },
        ...stringFields(entry, ['locationName', 'firstLine', 'buildingNumber', 'floor', 'apartment', 'secondLine'], [i]),
      ]),
  },
];

/**
 * A value of another type than `type` asks for: NaN, Infinity, numbers, numbers written as
 * strings, ... `null` only where a value is required ('filled', 'object', 'array'): for an
 * optional field it means "not given".
 */
function wrongFor(type: 'text' | 'textOrNumber' | 'filled' | 'boolean' | 'object' | 'array' | 'number'): fc.Arbitrary<unknown> {
  const numbers = fc.oneof(fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -0), fc.double(), fc.integer());
  const numericStrings = fc.oneof(
    fc.double({ noNaN: true }).map(String),
    fc.integer().map((n) => ` ${n} `),
    fc.constantFrom('NaN', 'Infinity', '1e400', '0x1F', ''),
  );
  // Objects of values JSON carries: a NaN inside one is refused at its own path (tested apart), not the field's.
  const others = fc.oneof(
    fc.constantFrom(true, false),
    fc.array(fc.integer(), { maxLength: 2 }),
    fc.object({ maxDepth: 1, maxKeys: 2, values: [fc.string(), fc.integer(), fc.boolean(), fc.constant(null)] }),
  );
  switch (type) {
    case 'text':
      return fc.oneof(numbers, others);
    case 'textOrNumber':
      return fc.oneof(fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY), others);
    case 'filled':
      return fc.oneof(numbers, others, fc.constantFrom('', '   ', '\t\n', null));
    case 'boolean':
      return fc.oneof(numbers, numericStrings, fc.constantFrom('true', 'false', 1, 0), fc.array(fc.boolean(), { maxLength: 2 }));
    case 'object':
      return fc.oneof(numbers, numericStrings, fc.constantFrom(null, true, 'object'), fc.array(fc.integer(), { maxLength: 2 }));
    case 'array':
      return fc.oneof(numbers, numericStrings, fc.constantFrom(null, true, 'FACEBOOK_SELLER'), fc.object({ maxDepth: 1, maxKeys: 2 }));
    case 'number':
      return fc.oneof(fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY), numericStrings, others);
  }
}

// ------------------------------------------------------------------ validators

describe('account, business and address validators', () => {
  it.each(subjects.map((subject) => [subject.name, subject] as const))('%s accepts every valid input as written, twice, without touching it', (_, subject) => {
    fc.assert(
      fc.property(subject.valid, (input) => {
        const before = structuredClone(input);
        const once = subject.validate(Object.freeze(input));
        // As written means as JSON carries it: the validators return the wire form, where -0 is 0.
        expect(once).toEqual(JSON.parse(JSON.stringify(before)));
        expect(subject.validate(once)).toEqual(once);
        expect(input).toEqual(before);
      }),
      { numRuns: runs(150) },
    );
  });

  it.each(subjects.map((subject) => [subject.name, subject] as const))('%s refuses a wrong type in any one field, naming that field alone', (_, subject) => {
    const broken = subject.valid.chain((input) => {
      const fields = subject.fields(input);
      return fc.constantFrom(...fields).chain((field) => wrongFor(field.type).map((value) => ({ input, field, value })));
    });
    fc.assert(
      fc.property(broken, ({ input, field, value }) => {
        const copy = structuredClone(input);
        setAt(copy, field.path, value);
        const error = thrown(() => subject.validate(copy));
        expect(error.cause).toBeUndefined();
        expectBlames(error, field.path);
      }),
      { numRuns: runs(200) },
    );
  });
});

describe('order validators', () => {
  const nearlyValid = fc
    .tuple(
      fc.constantFrom(...Object.values(validOrders)),
      fc.constantFrom('type', 'cod', 'receiver', 'specs', 'goodsInfo', 'escrowInfo', 'fulfillmentInfo', 'notes', 'dropOffAddress', 'pickupAddress'),
      fc.anything({ maxDepth: 3 }),
    )
    .map(([build, field, value]) => ({ ...build(), [field]: value }));
  const anyInput = fc.oneof(
    fc.constantFrom(...Object.values(validOrders)).map((build) => build() as unknown),
    nearlyValid,
    fc.anything({ maxDepth: 3, withBigInt: true, withNullPrototype: true }),
  );

  it('checkOrder and validateOrder agree on any input, and neither touches it', () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const before = typeof input === 'object' && input !== null ? structuredClone(input) : input;
        const checked = checkOrder(input);
        let thrownError: unknown;
        let value: unknown;
        try {
          value = validateOrder(input);
        } catch (error) {
          thrownError = error;
        }
        if (checked.ok) {
          expect(thrownError).toBeUndefined();
          expect(value).toEqual(checked.value);
        } else {
          expect(thrownError).toBeInstanceOf(checked.error.constructor);
          expect((thrownError as Error).message).toBe(checked.error.message);
        }
        expect(input).toEqual(before);
      }),
      { numRuns: runs(300) },
    );
  });

  /** Every field of an order that holds a number or a string, with the type it must have. */
  const orderFields: Array<{ order: keyof typeof validOrders; path: Path; type: 'number' | 'text' | 'textOrNumber' | 'filled' | 'boolean' }> = [
    ...(['deliver', 'cashCollection', 'customerReturnPickup', 'exchange', 'fulfillmentSend', 'fulfillmentReturn'] as const).flatMap((order) => [
      { order, path: ['goodsInfo', 'amount'], type: 'number' as const },
      { order, path: ['specs', 'packageDetails', 'itemsCount'], type: 'number' as const },
      { order, path: ['specs', 'packageDetails', 'description'], type: 'text' as const },
      { order, path: ['notes'], type: 'text' as const },
      { order, path: ['businessReference'], type: 'text' as const },
      { order, path: ['receiver', 'phone'], type: 'text' as const },
      { order, path: ['receiver', 'firstName'], type: 'text' as const },
      { order, path: ['allowToOpenPackage'], type: 'boolean' as const },
    ]),
    { order: 'deliver', path: ['escrowInfo', 'amountToBeCollected'], type: 'number' },
    { order: 'deliver', path: ['dropOffAddress', 'isWorkAddress'], type: 'boolean' },
    { order: 'deliver', path: ['dropOffAddress', 'floor'], type: 'textOrNumber' },
    { order: 'cashCollection', path: ['pickupAddress', 'buildingNumber'], type: 'textOrNumber' },
    { order: 'fulfillmentSend', path: ['fulfillmentInfo', 'items', 0, 'quantity'], type: 'number' },
    { order: 'fulfillmentSend', path: ['fulfillmentInfo', 'items', 0, 'sku'], type: 'filled' },
    { order: 'fulfillmentSend', path: ['fulfillmentInfo', 'items', 0, 'name'], type: 'text' },
    { order: 'fulfillmentReturn', path: ['fulfillmentInfo', 'items', 0, 'quantity'], type: 'number' },
    { order: 'fulfillmentReturn', path: ['originalFulfillmentTrackingNumber'], type: 'filled' },
  ];
  /** The fixture with every optional field those paths reach filled in. */
  const complete = (name: keyof typeof validOrders): Record<string, unknown> => ({
    notes: 'Ring twice',
    businessReference: 'ref-1',
    goodsInfo: { amount: 100 },
    allowToOpenPackage: false,
    ...validOrders[name](),
    specs: { packageType: 'SMALL', packageDetails: { description: 'Two shirts', itemsCount: 2 } },
    ...(name === 'deliver' ? { escrowInfo: { amountToBeCollected: 100 } } : {}),
  });

  it('refuse NaN, Infinity and numbers written as strings in every numeric field, and a wrong type in every other, at that path', () => {
    const broken = fc.constantFrom(...orderFields).chain((field) => wrongFor(field.type).map((value) => ({ field, value })));
    fc.assert(
      fc.property(broken, ({ field, value }) => {
        const order = complete(field.order);
        expect(() => validateOrder(order), `${field.order} is valid before it is broken`).not.toThrow();
        setAt(order, field.path, value);
        const error = thrown(() => validateOrder(order));
        expect(error.cause).toBeUndefined();
        expectBlames(error, field.path);
      }),
      { numRuns: runs(400) },
    );
  });

  it('refuse a type written as a string, NaN or Infinity', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.values(validOrders)),
        fc.oneof(fc.constantFrom('10', ' 15', '25.0', 'fxf_send', 'FXF SEND', Number.NaN, Number.POSITIVE_INFINITY, 10.5, -10, null), fc.string()),
        (build, type) => {
          const error = thrown(() => validateOrder({ ...build(), type }));
          expect(error).toBeInstanceOf(ValidationError);
          expectBlames(error, ['type']);
        },
      ),
      { numRuns: runs(100) },
    );
  });

  it('checkReturnItemsSubset accepts any part of the original items, and refuses one unit more or an unknown sku at its line', () => {
    const sku = fc.constantFrom('A', 'B', 'C', 'D');
    const items = fc.array(fc.record({ sku, quantity: fc.integer({ min: 1, max: 5 }) }), { minLength: 1, maxLength: 6 });
    const totals = (list: ReadonlyArray<{ sku: string; quantity: number }>): Map<string, number> => {
      const out = new Map<string, number>();
      for (const item of list) out.set(item.sku, (out.get(item.sku) ?? 0) + item.quantity);
      return out;
    };
    fc.assert(
      fc.property(items, fc.array(fc.nat(5), { minLength: 6, maxLength: 6 }), (original, takes) => {
        // A part: of each original line, between 0 and all of it.
        const part = original.map((item, i) => ({ sku: item.sku, quantity: Math.min(item.quantity, takes[i] ?? 0) })).filter((item) => item.quantity > 0);
        expect(checkReturnItemsSubset(part, original)).toEqual([]);
        const [first] = original as [{ sku: string; quantity: number }];
        const tooMany = [...part, { sku: first.sku, quantity: (totals(original).get(first.sku) ?? 0) - (totals(part).get(first.sku) ?? 0) + 1 }];
        expect(checkReturnItemsSubset(tooMany, original).map((issue) => issue.path)).toEqual([['fulfillmentInfo', 'items', tooMany.length - 1, 'quantity']]);
        const unknown = [...part, { sku: 'Z', quantity: 1 }];
        expect(checkReturnItemsSubset(unknown, original).map((issue) => issue.path[3])).toEqual(['sku']);
      }),
      { numRuns: runs(200) },
    );
  });
});

// ------------------------------------------------------------------ resource methods

describe('resource methods given arbitrary input', () => {
  const sandbox = createSandbox();
  afterAll(() => sandbox.close());
  let sent = 0;
  const countingFetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    sent++;
    return sandbox.fetch(input, init);
  }) as typeof fetch;
  const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: countingFetch, maxRetries: 0, cache: false });

  const trickyKey = fc.oneof(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'type', 'cod', 'phone', 'token', 'firstLine', 'districtId', 'city'),
    fc.string({ maxLength: 6 }),
  );
  const junk = fc.oneof(
    fc.constantFrom(null, undefined, 0, Number.NaN, '', 'eg', [], {}, [null], new Map(), (() => 1) as unknown),
    fc.anything({
      key: trickyKey,
      maxDepth: 3,
      maxKeys: 5,
      withBigInt: true,
      withNullPrototype: true,
      withMap: true,
      withSet: true,
      withSparseArray: true,
      withBoxedValues: true,
    }),
  );
  const nearly = <T extends Record<string, unknown>>(valid: T) =>
    fc.tuple(fc.constantFrom(...Object.keys(valid)), junk).map(([key, value]) => ({ ...valid, [key]: value }));
  const arg = (...valid: Array<Record<string, unknown>>) => fc.oneof(junk, ...valid.map(nearly), fc.constantFrom(...valid));
  const options = fc.constantFrom(undefined, null, {});

  const admin = { email: 'owner@nile.example', password: 's3cret!', countryId: 'c', profile: { firstName: 'M', lastName: 'A', phone: '+20100' } };
  const location = { districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street' };
  const orders = Object.values(validOrders).map((build) => build() as Record<string, unknown>);

  /** Each method, its argument, and whether that argument is valid (invalid ones must never reach the wire). */
  const methods: Array<{
    name: string;
    input: fc.Arbitrary<unknown>;
    call: (input: unknown, opts: never) => unknown;
    valid: (input: unknown) => boolean;
    looksUpFirst?: true;
  }> = [
    { name: 'deliveries.create', input: arg(...orders), call: (x, o) => client.deliveries.create(x as never, o), valid: (x) => checkOrder(x).ok },
    {
      name: 'fulfillment.create',
      input: arg(validOrders.fulfillmentSend()),
      call: (x, o) => client.fulfillment.create(x as never, o),
      valid: passes(validateFulfillmentOrder),
    },
    {
      name: 'fulfillment.createReturn',
      input: arg(validOrders.fulfillmentReturn()),
      call: (x, o) => client.fulfillment.createReturn(x as never, o),
      valid: passes(validateFulfillmentReturn),
    },
    {
      name: 'fulfillment.createBulky',
      input: fc.oneof(junk, fc.array(arg(validOrders.fulfillmentSend()), { maxLength: 3 })),
      call: (x, o) => client.fulfillment.createBulky(x as never, o),
      valid: (x) => Array.isArray(x) && x.length > 0 && x.every((order) => checkOrder(order).ok && (order as { type?: unknown }).type === 'FXF_SEND'),
    },
    {
      name: 'deliveries.createBulk',
      input: fc.oneof(junk, fc.array(arg(...orders), { maxLength: 3 })),
      call: (x, o) => client.deliveries.createBulk(x as never, o),
      // Any iterable but a string is taken (a generator, a stream of rows); an empty one creates nothing. No two orders share a reference.
      valid: (x) =>
        typeof x !== 'string' &&
        typeof (x as Partial<Iterable<unknown>> | null)?.[Symbol.iterator] === 'function' &&
        [...(x as Iterable<unknown>)].every((order) => checkOrder(order).ok) &&
        (['businessReference', 'uniqueBusinessReference'] as const).every((field) => {
          const references = [...(x as Iterable<Record<string, unknown>>)]
            .map((order) => order[field])
            .filter((value) => typeof value === 'string' && value !== '');
          return new Set(references).size === references.length;
        }),
    },
    {
      name: 'businesses.create',
      input: arg({ name: 'Nile Shop', salesChannel: 'FACEBOOK_SELLER' }, { name: 'Nile', autoCreatePickups: true }),
      call: (x, o) => client.businesses.create(x as never, o),
      valid: passes(validateBusiness),
    },
    {
      name: 'businesses.updatePickupLocations',
      input: fc.oneof(junk, fc.array(arg(location), { maxLength: 2 })),
      call: (x, o) => client.businesses.updatePickupLocations('business-1', x as never, o),
      valid: passes(validatePickupLocations),
    },
    {
      name: 'businesses.updatePickupLocations (id)',
      input: fc.oneof(junk, fc.constantFrom('', '  ')),
      call: (x, o) => client.businesses.updatePickupLocations(x as never, [location], o),
      valid: (x) => typeof x === 'string' && x.trim() !== '',
    },
    {
      name: 'users.registerBusinessAdmin',
      input: arg(admin),
      call: (x, o) => client.users.registerBusinessAdmin(x as never, o),
      valid: passes(validateRegisterBusinessAdmin),
    },
    { name: 'users.verifyPhone', input: arg({ phone: '+20100' }), call: (x, o) => client.users.verifyPhone(x as never, o), valid: passes(validateVerifyPhone) },
    {
      name: 'users.confirmPhone',
      input: arg({ phone: '+20100', token: '123456' }),
      call: (x, o) => client.users.confirmPhone(x as never, o),
      valid: passes(validateConfirmPhone),
    },
    { name: 'users.confirmEmail', input: arg({ token: 'tok' }), call: (x, o) => client.users.confirmEmail(x as never, o), valid: passes(validateConfirmEmail) },
    {
      name: 'lookup.cities',
      input: fc.oneof(junk, nearly({ countryId: 'eg' })),
      call: (x, o) => client.lookup.cities(x as never, o),
      valid: (x) => typeof (x as { countryId?: unknown } | null)?.countryId === 'string' && (x as { countryId: string }).countryId.trim() !== '',
    },
    { name: 'lookup.zones', input: junk, call: (x, o) => client.lookup.zones(x as never, o), valid: (x) => typeof x === 'string' && x.trim() !== '' },
    { name: 'lookup.districts', input: junk, call: (x, o) => client.lookup.districts(x as never, o), valid: (x) => typeof x === 'string' && x.trim() !== '' },
    {
      name: 'lookup.allDistricts',
      input: fc.oneof(junk, nearly({ countryId: 'eg' })),
      call: (x, o) => client.lookup.allDistricts(x as never, o),
      // Nothing, or an object: without countryId every country is listed.
      valid: (x) => {
        const countryId = (x as { countryId?: unknown } | null | undefined)?.countryId;
        return (x == null || typeof x === 'object') && (countryId === undefined || (typeof countryId === 'string' && countryId.trim() !== ''));
      },
    },
    {
      name: 'lookup.resolveAddress',
      input: fc.oneof(junk, nearly({ city: 'Giza', district: 'Dokki', firstLine: '12 Tahrir Street' })),
      call: (x, o) => client.lookup.resolveAddress(x as never, o),
      // Its 3001-3003 and "not served" errors come after the lookups, by design.
      looksUpFirst: true,
      valid: (x) =>
        typeof x === 'object' &&
        x !== null &&
        ['city', 'district', 'firstLine'].every(
          (key) => typeof (x as Record<string, unknown>)[key] === 'string' && ((x as Record<string, string>)[key] as string).trim() !== '',
        ),
    },
  ];

  it.each(methods.map((method) => [method.name, method] as const))(
    '%s: rejects only with typed errors, and sends nothing it should refuse',
    async (_, method) => {
      await fc.assert(
        fc.asyncProperty(method.input, options, async (input, opts) => {
          const before = sent;
          let promise: unknown;
          expect(() => {
            promise = method.call(input, opts as never);
          }, 'no synchronous throw').not.toThrow();
          const error = await Promise.resolve(promise).then(
            () => undefined,
            (e: unknown) => e,
          );
          if (error !== undefined) expect(error, String(error)).toBeInstanceOf(DeliveryError);
          const refusedBeforeSending =
            error instanceof ValidationError || error instanceof ConfigurationError || (error instanceof CodedDeliveryError && error.source === 'client');
          if (!method.valid(input) || (refusedBeforeSending && method.looksUpFirst !== true)) expect(sent - before, 'requests sent').toBe(0);
          if (!method.valid(input)) expect(error).toBeDefined();
        }),
        { numRuns: runs(120) },
      );
      expectPrototypeUntouched();
    },
  );

  it('previewBulkyMerge throws nothing but a ValidationError, and sends nothing', () => {
    const before = sent;
    const { seed, note } = propertySeed();
    fc.assert(
      fc.property(
        fc.oneof(junk, fc.array(fc.oneof(junk, nearly(validOrders.fulfillmentSend()), fc.constant(validOrders.fulfillmentSend())), { maxLength: 4 })),
        (input) => {
          try {
            previewBulkyMerge(input as never);
          } catch (error) {
            expect(error, String(error)).toBeInstanceOf(ValidationError);
          }
        },
      ),
      { numRuns: runs(300), seed },
    );
    expect(sent, note).toBe(before);
  });
});

function passes(validate: Validator): (input: unknown) => boolean {
  return (input) => {
    try {
      validate(input);
      return true;
    } catch {
      return false;
    }
  };
}

// ------------------------------------------------------------------ answers of the create calls

describe('a 2xx answer of any shape to a create call', () => {
  /** An id as a service might send it, well or badly. */
  const id = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.integer({ min: -5, max: Number.MAX_SAFE_INTEGER }),
    fc.constantFrom(2 ** 53, 2 ** 60, 1e21, 0.5, -1, true, null, 'x'),
    fc.object({ maxDepth: 1, maxKeys: 2 }),
    fc.array(fc.integer(), { maxLength: 2 }),
  );
  const record = fc.record({ _id: id, trackingNumber: id, extra: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] });
  const body = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    record,
    fc.record({ success: fc.constantFrom(true, 'true'), message: fc.string(), data: fc.oneof(record, fc.jsonValue({ maxDepth: 1 })) }),
  );
  /** What a usable id reads as: a non-empty string as it is, a whole number below 2^53 as its digits. */
  const readable = (value: unknown): string | undefined =>
    typeof value === 'string' && value !== '' ? value : Number.isSafeInteger(value) && (value as number) >= 0 ? String(value) : undefined;
  const unwrapped = (answer: unknown): unknown => {
    const envelope = answer as { success?: unknown; data?: unknown } | null;
    return typeof envelope === 'object' && envelope !== null && (envelope.success === true || envelope.success === 'true') && 'data' in envelope
      ? envelope.data
      : answer;
  };
  const isErrorEnvelope = (answer: unknown): boolean => {
    const success = (answer as { success?: unknown } | null)?.success;
    return typeof answer === 'object' && answer !== null && !Array.isArray(answer) && (success === false || success === 'false');
  };

  const calls: Array<[string, readonly ('_id' | 'trackingNumber')[], (client: DeliveryClient) => Promise<unknown>]> = [
    ['deliveries.create', ['_id', 'trackingNumber'], (client) => client.deliveries.create(validOrders.deliver() as never)],
    ['fulfillment.create', ['_id', 'trackingNumber'], (client) => client.fulfillment.create(validOrders.fulfillmentSend() as never)],
    ['fulfillment.createReturn', ['_id', 'trackingNumber'], (client) => client.fulfillment.createReturn(validOrders.fulfillmentReturn() as never)],
    ['businesses.create', ['_id'], (client) => client.businesses.create({ name: 'Nile Shop' })],
  ];

  it.each(calls)('%s resolves with its ids as strings or throws ResponseShapeError, after one request', async (_, fields, call) => {
    await fc.assert(
      fc.asyncProperty(body, async (answer) => {
        let requests = 0;
        const client = new DeliveryClient({
          baseUrl: 'https://api.delivery.test/v2',
          apiKey: 'k',
          fetch: (async () => {
            requests++;
            return Response.json(answer, { status: 201 });
          }) as typeof fetch,
        });
        const outcome = await call(client).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
        expect(requests).toBe(1);
        if (isErrorEnvelope(answer)) {
          expect('error' in outcome && outcome.error).toBeInstanceOf(DeliveryError);
          return;
        }
        const data = unwrapped(answer) as Record<string, unknown> | null;
        const ids = fields.map((field) => readable(typeof data === 'object' && data !== null && !Array.isArray(data) ? data[field] : undefined));
        if (ids.every((value) => value !== undefined)) {
          expect(outcome).toHaveProperty('value');
          const value = (outcome as { value: Record<string, unknown> }).value;
          fields.forEach((field, i) => expect(value[field]).toBe(ids[i]));
        } else {
          expect('error' in outcome && outcome.error, JSON.stringify(answer)).toBeInstanceOf(ResponseShapeError);
          expect((outcome as { error: Error }).error.message).toMatch(/may exist/);
        }
      }),
      { numRuns: runs(150) },
    );
  });
});

// ------------------------------------------------------------------ webhook bodies

describe('parseWebhookEvent, beyond test/webhooks/parse.test.ts', () => {
  const valid = (): Record<string, unknown> => ({
    _id: '5b8e6a8e9c1f4b0012d3a1f7',
    trackingNumber: 7234258,
    state: 24,
    type: 'SEND',
    timeStamp: 1_738_224_000_000,
    numberOfAttempts: 0,
    deliveryPromiseDate: '02-02-2025',
    businessReference: 'ref-1',
  });
  const onlyTyped = (body: unknown): ReturnType<typeof parseWebhookEvent> | WebhookPayloadError => {
    try {
      return parseWebhookEvent(body);
    } catch (error) {
      expect(error, String(error)).toBeInstanceOf(WebhookPayloadError);
      return error as WebhookPayloadError;
    }
  };

  const dangerous = fc.constantFrom('__proto__', 'constructor', 'prototype', '__defineGetter__', 'hasOwnProperty', 'toString', 'valueOf');
  /** Unknown fields, with prototype keys at any depth, as JSON text (where `__proto__` is an own key). */
  const nested: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 1 }),
      fc.dictionary(fc.oneof(dangerous, fc.string({ maxLength: 4 })), tie('node'), { maxKeys: 3 }),
      fc.array(tie('node'), { maxLength: 2 }),
    ),
  })).node;

  it('lets prototype keys at any depth pollute nothing: unknown fields stay in raw as own keys', () => {
    fc.assert(
      fc.property(fc.dictionary(dangerous, nested, { minKeys: 1, maxKeys: 4 }), (extra) => {
        const members = Object.entries(extra).map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`);
        const textBody = `{${[...members, JSON.stringify(valid()).slice(1, -1)].join(',')}}`;
        const event = parseWebhookEvent(textBody);
        expect(event.state).toBe(24);
        expect(event.trackingNumber).toBe('7234258');
        expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
        for (const key of Object.keys(extra)) expect(Object.hasOwn(event.raw, key)).toBe(true);
        expectPrototypeUntouched();
      }),
      { numRuns: runs(200) },
    );
  });

  it('reads no field through a prototype: without an own _id, trackingNumber or state the error names the first, and an inherited type or timeStamp is absent', () => {
    const fields = ['state', 'type', '_id', 'trackingNumber', 'timeStamp'];
    const required = ['_id', 'trackingNumber', 'state'];
    fc.assert(
      fc.property(fc.subarray(fields, { minLength: 1 }), fc.boolean(), (inherited, asText) => {
        const own = valid();
        const proto: Record<string, unknown> = {};
        for (const key of inherited) {
          proto[key] = own[key];
          delete own[key];
        }
        const body = asText ? `{"__proto__":${JSON.stringify(proto)},${JSON.stringify(own).slice(1)}` : Object.assign(Object.create(proto) as object, own);
        const outcome = onlyTyped(body);
        const missing = required.find((key) => inherited.includes(key));
        if (missing !== undefined) {
          expect(outcome).toBeInstanceOf(WebhookPayloadError);
          expect((outcome as WebhookPayloadError).field).toBe(missing);
        } else {
          for (const key of inherited) expect((outcome as unknown as Record<string, unknown>)[key]).toBeUndefined();
        }
      }),
      { numRuns: runs(100) },
    );
  });

  const badNumbers = fc.oneof(
    // biome-ignore lint/correctness/noPrecisionLoss: 1e400 is what JSON.parse makes of a number too large for a double (Infinity)
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, 0.5, 2 ** 53, 1e400, null),
    fc.oneof(fc.nat().map(String), fc.double({ noNaN: true }).map(String), fc.constantFrom('NaN', 'Infinity', ' 45 ', '0x2d', '')),
    fc.constantFrom(true, [], {}),
  );

  it('refuses a state that is no whole number, naming it; any other numeric field that is no number is flagged, never refused', () => {
    const numeric = [
      { field: 'state', base: valid() },
      { field: 'timeStamp', base: valid() },
      { field: 'numberOfAttempts', base: valid() },
      { field: 'exceptionCode', base: { ...valid(), state: 47, exceptionCode: 3 } },
      { field: 'cod', base: { ...valid(), state: 45, cod: 250 } },
    ];
    const digits = (value: unknown): boolean => typeof value === 'string' && /^\d{1,15}$/.test(value.trim());
    fc.assert(
      fc.property(fc.constantFrom(...numeric), badNumbers, ({ field, base }, value) => {
        const outcome = onlyTyped({ ...base, [field]: value });
        if (field === 'state') {
          if (digits(value) && Number(value) <= 2 ** 53) expect(outcome).toMatchObject({ state: Number(value) });
          else expect((outcome as WebhookPayloadError).field).toBe('state');
          return;
        }
        expect(outcome).not.toBeInstanceOf(WebhookPayloadError);
        const event = outcome as WebhookEvent;
        const flagged = (event.issues ?? []).map((issue) => issue.field);
        expect(flagged.filter((name) => name !== field)).toEqual([]);
        // What it was read as, when not flagged: a number (null: absent), and the sent value in raw.
        if (flagged.length === 0 && value !== null) expect(typeof (event as unknown as Record<string, unknown>)[field]).toBe('number');
        expect(event.raw[field]).toEqual(value);
      }),
      { numRuns: runs(300) },
    );
  });

  it('takes a tracking number as a string as it is, or as a whole number below 2^53, and refuses any other', () => {
    fc.assert(
      fc.property(fc.oneof(badNumbers, fc.string({ maxLength: 30 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })), (trackingNumber) => {
        const outcome = onlyTyped({ ...valid(), trackingNumber });
        if (typeof trackingNumber === 'string' && trackingNumber !== '') expect(outcome).toMatchObject({ trackingNumber });
        else if (Number.isSafeInteger(trackingNumber) && (trackingNumber as number) >= 0)
          expect(outcome).toMatchObject({ trackingNumber: String(trackingNumber) });
        else expect((outcome as WebhookPayloadError).field).toBe('trackingNumber');
      }),
      { numRuns: runs(300) },
    );
  });

  it('copes with huge strings in every field and deep nesting in unknown ones, given as an object', () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep, __proto__: null };
    const huge = 'x'.repeat(1_000_000);
    fc.assert(
      fc.property(
        fc.constantFrom('_id', 'type', 'trackingNumber', 'businessReference', 'deliveryPromiseDate', 'exceptionReason', 'state', 'extra'),
        (field) => {
          const outcome = onlyTyped({ ...valid(), state: 47, exceptionCode: 3, [field]: huge, nested: deep, list: [[[[deep]]]] });
          if (outcome instanceof WebhookPayloadError) {
            expect(['deliveryPromiseDate', 'state']).toContain(outcome.field);
            expect(outcome.message.length).toBeLessThan(500);
          } else expect(outcome.raw['nested']).toBe(deep);
        },
      ),
      { numRuns: runs(30) },
    );
  });

  it('reads arbitrary bytes as a body or refuses them with a typed error', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 64 }),
          fc.string({ unit: 'binary', maxLength: 64 }).map((s) => new TextEncoder().encode(s)),
        ),
        (bytes) => {
          onlyTyped(bytes);
          onlyTyped(bytes.buffer);
        },
      ),
      { numRuns: runs(300) },
    );
  });
});
