import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/errors/index.js';
import { describeException, parseWebhookEvent, type WebhookEvent, WebhookOrderType, WebhookPayloadError } from '../../src/webhooks/index.js';
import { type Placement, placementOf } from '../../src/webhooks/parse.js';
import { propertySeed } from '../support/property-seed.js';
import { T0, webhookBody } from '../support/webhook-bodies.js';

/** The error parseWebhookEvent threw, failing the test when it threw none or another kind. */
function payloadError(body: unknown): WebhookPayloadError {
  try {
    parseWebhookEvent(body);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookPayloadError);
    return err as WebhookPayloadError;
  }
  throw new Error(`parsed without error: ${JSON.stringify(body)}`);
}

describe("parseWebhookEvent reads the spec's Events fields", () => {
  it('reads every field of an Exception webhook, the date as midnight UTC', () => {
    const event = parseWebhookEvent(webhookBody({ state: 47, numberOfAttempts: 2 }));
    expect(event).toMatchObject({
      _id: '65b8c0f2a1d4e5f6a7b8c9d0',
      trackingNumber: '4567891234',
      state: 47,
      type: 'FXF_SEND',
      timeStamp: T0,
      isConfirmedDelivery: false,
      deliveryPromiseDate: '02-02-2025',
      businessReference: 'NILE-ORDER-1042',
      numberOfAttempts: 2,
      exceptionCode: 7,
      exceptionReason: 'Customer is not answering',
      known: true,
      stateKnown: true,
      typeKnown: true,
    });
    expect(event.deliveryPromiseDay?.toISOString()).toBe('2025-02-02T00:00:00.000Z');
    expect(event.cod).toBeUndefined();
  });

  it('reads cod in Delivered, and reads a Delivered without cod as nothing collected', () => {
    expect(parseWebhookEvent(webhookBody({ state: 45, cod: 1250.5 })).cod).toBe(1250.5);
    const { cod: _, ...withoutCod } = webhookBody({ state: 45 });
    expect(parseWebhookEvent(withoutCod).cod).toBe(0);
  });

  it('keeps cod and exception fields off states that do not carry them (they stay in raw)', () => {
    const event = parseWebhookEvent(webhookBody({ state: 24, cod: 99, exceptionCode: 3, exceptionReason: 'x' }));
    expect(event.cod).toBeUndefined();
    expect(event.exceptionCode).toBeUndefined();
    expect(event.raw['cod']).toBe(99);
  });

  it('fills a missing exceptionReason from the catalogue', () => {
    const { exceptionReason: _, ...body } = webhookBody({ state: 47, exceptionCode: 23 });
    expect(parseWebhookEvent(body).exceptionReason).toBe('Business is not answering');
  });

  it('takes a tracking number given as a string as it is', () => {
    expect(parseWebhookEvent(webhookBody({ trackingNumber: '0045678912' })).trackingNumber).toBe('0045678912');
  });

  it('reads null optional fields as absent', () => {
    const event = parseWebhookEvent(webhookBody({ businessReference: null, deliveryPromiseDate: null, numberOfAttempts: null, isConfirmedDelivery: null }));
    expect(event.businessReference).toBeUndefined();
    expect(event.deliveryPromiseDay).toBeUndefined();
    expect('businessReference' in event).toBe(false);
  });

  it('reads the same event from an object, a JSON string and UTF-8 bytes', () => {
    const body = webhookBody({ businessReference: 'طلب-١٠٤٢' });
    const fromObject = parseWebhookEvent(body);
    expect(parseWebhookEvent(JSON.stringify(body))).toEqual(fromObject);
    expect(parseWebhookEvent(new TextEncoder().encode(JSON.stringify(body)))).toEqual(fromObject);
    expect(parseWebhookEvent(new TextEncoder().encode(JSON.stringify(body)).buffer)).toEqual(fromObject);
  });

  it('keeps fields the SDK does not know in raw', () => {
    const event = parseWebhookEvent(JSON.stringify(webhookBody({ courier: { name: 'Hassan' }, hubId: 7 })));
    expect(event.raw).toMatchObject({ courier: { name: 'Hassan' }, hubId: 7, trackingNumber: 4_567_891_234 });
  });

  it.each(['29-02-2024', '01-01-2025', '31-12-2025', '01-01-0099'])('reads %s as that day', (text) => {
    const [day, month, year] = text.split('-').map(Number) as [number, number, number];
    const date = parseWebhookEvent(webhookBody({ deliveryPromiseDate: text })).deliveryPromiseDay as Date;
    expect([date.getUTCDate(), date.getUTCMonth() + 1, date.getUTCFullYear(), date.getUTCHours()]).toEqual([day, month, year, 0]);
  });
});

describe('codes the SDK does not know yet are kept and flagged, never thrown away', () => {
  it('keeps an unknown state', () => {
    const event = parseWebhookEvent(webhookBody({ state: 106 }));
    expect(event).toMatchObject({ state: 106, stateKnown: false, typeKnown: true, known: false });
  });

  it('keeps an unknown type', () => {
    const event = parseWebhookEvent(webhookBody({ type: 'SAME_DAY_SEND' }));
    expect(event).toMatchObject({ type: 'SAME_DAY_SEND', stateKnown: true, typeKnown: false, known: false });
  });

  it('knows every state of the States table and every webhook type', () => {
    // The spec's States table and Events 3 type list; CASH_COLLECTION is the SDK's assumption for type 15.
    const specStates = [10, 11, 20, 22, 40, 21, 23, 41, 24, 25, 30, 45, 46, 47, 49, 48, 100, 101, 60, 102, 103, 104, 105];
    const specTypes = ['SEND', 'EXCHANGE', 'CUSTOMER_RETURN_PICKUP', 'RTO', 'SIGN_AND_RETURN', 'FXF_SEND', 'CASH_COLLECTION'];
    for (const state of specStates) {
      for (const type of specTypes) expect(parseWebhookEvent(webhookBody({ state, type })).known, `${state} ${type}`).toBe(true);
    }
  });
});

describe('any other field that cannot be read is flagged in issues, kept in raw, and never refuses the webhook', () => {
  const base = webhookBody();
  const without = (field: string): Record<string, unknown> => Object.fromEntries(Object.entries(base).filter(([key]) => key !== field));
  const issueFields = (event: WebhookEvent): string[] => (event.issues ?? []).map((issue) => issue.field);

  it.each<[string, Record<string, unknown>, string]>([
    ['type empty', { ...base, type: '' }, 'type'],
    ['type numeric', { ...base, type: 10 }, 'type'],
    ['timeStamp a word', { ...base, timeStamp: 'yesterday' }, 'timeStamp'],
    ['timeStamp NaN', { ...base, timeStamp: Number.NaN }, 'timeStamp'],
    ['isConfirmedDelivery as text', { ...base, isConfirmedDelivery: 'yes' }, 'isConfirmedDelivery'],
    ['deliveryPromiseDate a number', { ...base, deliveryPromiseDate: 2022025 }, 'deliveryPromiseDate'],
    ['numberOfAttempts negative', { ...base, numberOfAttempts: -1 }, 'numberOfAttempts'],
    ['exceptionReason a number', webhookBody({ state: 47, exceptionReason: 7 }), 'exceptionReason'],
  ])('%s: left out of the event, flagged, kept in raw', (_, body, field) => {
    const event = parseWebhookEvent(body);
    expect(issueFields(event)).toEqual([field]);
    expect(event.issues?.[0]?.message).toMatch(/^expected .+, received /);
    expect((event as unknown as Record<string, unknown>)[field]).toBe(field === 'exceptionReason' ? describeException(7).reason : undefined);
    expect(event.raw[field]).toBe(body[field]);
    expect(event.trackingNumber).toBe('4567891234');
  });

  it.each<[string, string]>([
    ['31-02-2025', '31 February'],
    ['29-02-2023', '29 February of a common year'],
    ['01-13-2025', 'month 13'],
    ['2-2-2025', 'no leading zeros'],
    ['', 'empty'],
    ['next Tuesday', 'words'],
  ])('deliveryPromiseDate %j (%s): kept as sent, no deliveryPromiseDay, flagged', (date) => {
    const event = parseWebhookEvent({ ...base, deliveryPromiseDate: date });
    expect(event.deliveryPromiseDate).toBe(date);
    expect(event.deliveryPromiseDay).toBeUndefined();
    expect(issueFields(event)).toEqual(['deliveryPromiseDate']);
  });

  it('reads deliveryPromiseDate as an ISO date too, as its calendar day at midnight UTC', () => {
    expect(parseWebhookEvent({ ...base, deliveryPromiseDate: '2025-02-02' }).deliveryPromiseDay).toEqual(new Date(Date.UTC(2025, 1, 2)));
    const event = parseWebhookEvent({ ...base, deliveryPromiseDate: '2025-02-02T21:00:00.000Z' });
    expect(event.deliveryPromiseDay).toEqual(new Date(Date.UTC(2025, 1, 2)));
    expect(event.issues).toBeUndefined();
  });

  it('a state-47 body without exceptionCode is an Exception event without a code', () => {
    const event = parseWebhookEvent({ ...base, state: 47, exceptionReason: 'Customer is not answering' });
    if (event.state !== 47) throw new Error('expected an Exception event');
    expect(event.exceptionCode).toBeUndefined();
    expect(event.exceptionReason).toBe('Customer is not answering');
    expect(event.issues).toBeUndefined();
    const bare = parseWebhookEvent({ ...base, state: 47 });
    expect(bare.state === 47 && bare.exceptionReason).toBe(describeException(undefined).reason);
  });

  it('reads numbers written as digits (state, exceptionCode, cod, timeStamp) and a numeric businessReference as text', () => {
    const event = parseWebhookEvent(webhookBody({ state: '47', exceptionCode: '7', timeStamp: String(T0), businessReference: 1042 }));
    expect(event).toMatchObject({ state: 47, exceptionCode: 7, timeStamp: T0, businessReference: '1042' });
    expect(event.issues).toBeUndefined();
    expect(parseWebhookEvent(webhookBody({ state: 45, cod: '1250.50' }))).toMatchObject({ cod: 1250.5 });
    expect(parseWebhookEvent({ ...base, timeStamp: '2025-01-30T09:00:00.000Z' }).timeStamp).toBe(T0);
  });

  it('a Delivered body whose cod is no amount reads as 0 collected, flagged, the sent value in raw', () => {
    const event = parseWebhookEvent(webhookBody({ state: 45, cod: 'twelve' }));
    expect(event.state === 45 && event.cod).toBe(0);
    expect(issueFields(event)).toEqual(['cod']);
    expect(event.raw['cod']).toBe('twelve');
  });

  it('type and timeStamp may be missing: the event comes without them, not refused', () => {
    const event = parseWebhookEvent(without('type'));
    expect(event.type).toBeUndefined();
    expect(event).toMatchObject({ typeKnown: false, known: false });
    expect(parseWebhookEvent(without('timeStamp')).timeStamp).toBeUndefined();
    expect(parseWebhookEvent({ _id: 'a1', trackingNumber: 7, state: 24 })).toMatchObject({ _id: 'a1', trackingNumber: '7', state: 24, stateKnown: true });
  });

  it('lists every unreadable field, not only the first', () => {
    const event = parseWebhookEvent({ ...base, type: 10, isConfirmedDelivery: 'yes', numberOfAttempts: 'two' });
    expect(issueFields(event)).toEqual(['type', 'isConfirmedDelivery', 'numberOfAttempts']);
  });
});

describe('only a body without _id, trackingNumber or state throws a WebhookPayloadError naming the field', () => {
  const base = webhookBody();
  const without = (field: string): Record<string, unknown> => Object.fromEntries(Object.entries(base).filter(([key]) => key !== field));

  it.each<[string, unknown, string]>([
    ['state missing', without('state'), 'state'],
    ['state with a fraction', { ...base, state: 45.5 }, 'state'],
    ['state negative', { ...base, state: -1 }, 'state'],
    ['state NaN', { ...base, state: Number.NaN }, 'state'],
    ['state Infinity', { ...base, state: Number.POSITIVE_INFINITY }, 'state'],
    ['state a word', { ...base, state: 'Delivered' }, 'state'],
    ['_id missing', without('_id'), '_id'],
    ['_id an object', { ...base, _id: { $oid: 'x' } }, '_id'],
    ['trackingNumber missing', without('trackingNumber'), 'trackingNumber'],
    ['trackingNumber empty', { ...base, trackingNumber: '' }, 'trackingNumber'],
    ['trackingNumber boolean', { ...base, trackingNumber: true }, 'trackingNumber'],
    ['trackingNumber with a fraction', { ...base, trackingNumber: 12.5 }, 'trackingNumber'],
    ['trackingNumber negative', { ...base, trackingNumber: -3 }, 'trackingNumber'],
    ['trackingNumber beyond 2^53 (digits already lost)', { ...base, trackingNumber: 2 ** 60 }, 'trackingNumber'],
  ])('%s', (_, body, field) => {
    const err = payloadError(body);
    expect(err.field).toBe(field);
    expect(err.message).toContain(`${field}:`);
    expect(err).toBeInstanceOf(DeliveryError);
  });

  it.each<[string, unknown]>([
    ['not JSON', '{"state": 45,'],
    ['an empty string', ''],
    ['JSON null', 'null'],
    ['a JSON array', JSON.stringify([webhookBody()])],
    ['a JSON string', JSON.stringify(JSON.stringify(webhookBody()))],
    ['a number', 45],
    ['undefined', undefined],
    ['invalid UTF-8 bytes', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])],
  ])('%s: the body as a whole (no field)', (_, body) => {
    expect(payloadError(body).field).toBeUndefined();
  });

  it('never reads inherited properties, so a polluted prototype adds no field', () => {
    expect(payloadError(Object.create(webhookBody())).field).toBe('_id');
    expect(payloadError(`{"__proto__": {"state": 45, "type": "SEND"}, "_id": "a1", "trackingNumber": 7}`).field).toBe('state');
  });

  it('lets a JSON "__proto__" key pollute nothing', () => {
    const event = parseWebhookEvent(`{"__proto__": {"polluted": true}, ${JSON.stringify(webhookBody()).slice(1)}`);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.hasOwn(event.raw, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
  });

  it("turns a throwing getter or proxy of a caller's object into a WebhookPayloadError", () => {
    const getter = Object.defineProperty(webhookBody(), 'state', {
      enumerable: true,
      get: () => {
        throw new RangeError('boom');
      },
    });
    expect(payloadError(getter).cause).toBeInstanceOf(RangeError);
    const proxy = new Proxy(webhookBody(), {
      getOwnPropertyDescriptor: () => {
        throw new TypeError('revoked');
      },
    });
    expect(payloadError(proxy).cause).toBeInstanceOf(TypeError);
  });

  it('reads a 5 MB body of unknown fields, and rejects deep nesting with a typed error', () => {
    const event = parseWebhookEvent(JSON.stringify(webhookBody({ padding: 'x'.repeat(5_000_000) })));
    expect(event.state).toBe(24);
    expect(payloadError('['.repeat(200_000) + ']'.repeat(200_000)).field).toBeUndefined();
  });
});

describe('arbitrary input (fast-check): an event or a WebhookPayloadError, nothing else', () => {
  const onlyTypedErrors = (body: unknown): void => {
    try {
      parseWebhookEvent(body);
    } catch (err) {
      if (!(err instanceof WebhookPayloadError)) throw err;
    }
  };

  it('for any JSON value, given as a value or as text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        onlyTypedErrors(value);
        onlyTypedErrors(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });

  it('for any string and any value at all', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.anything({ withNullPrototype: true, withMap: true, withTypedArray: true })), onlyTypedErrors), {
      numRuns: 300,
    });
  });

  it('for a valid body with one field replaced: refused only for _id, trackingNumber or state, else at most that field flagged', () => {
    const fields = Object.keys(webhookBody());
    const required = ['_id', 'trackingNumber', 'state'];
    let refused = 0;
    let flagged = 0;
    const { seed, note } = propertySeed();
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue(), (field, value) => {
        let event: WebhookEvent;
        try {
          event = parseWebhookEvent(JSON.stringify({ ...webhookBody(), [field]: value }));
        } catch (err) {
          refused++;
          expect(err).toBeInstanceOf(WebhookPayloadError);
          expect(required).toContain((err as WebhookPayloadError).field);
          expect((err as WebhookPayloadError).field).toBe(field);
          return;
        }
        if (event.issues !== undefined) flagged++;
        expect((event.issues ?? []).map((issue) => issue.field)).toEqual(event.issues === undefined ? [] : [field]);
        expect(event.raw[field]).toEqual(JSON.parse(JSON.stringify({ [field]: value }))[field]);
      }),
      { numRuns: 300, seed },
    );
    // Most replacements are of the wrong type: a parser that refused or flagged none would pass the loop above.
    expect(refused, note).toBeGreaterThan(20);
    expect(flagged, note).toBeGreaterThan(50);
  });

  it('reads back every valid body it is given, tracking number as a string', () => {
    const validBody = fc.record({
      _id: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 24, maxLength: 24 }),
      trackingNumber: fc.oneof(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.string({ minLength: 1 })),
      state: fc.integer({ min: 0, max: 999 }),
      type: fc.oneof(fc.constantFrom(...Object.values(WebhookOrderType)), fc.string({ minLength: 1 })),
      timeStamp: fc.integer({ min: 0, max: 4_102_444_800_000 }),
      numberOfAttempts: fc.nat(),
      exceptionCode: fc.nat(200),
    });
    fc.assert(
      fc.property(validBody, (body) => {
        const event = parseWebhookEvent(JSON.stringify(body));
        expect(event.trackingNumber).toBe(String(body.trackingNumber));
        expect([event.state, event.type, event.timeStamp, event.numberOfAttempts]).toEqual([body.state, body.type, body.timeStamp, body.numberOfAttempts]);
        expect(event.exceptionCode).toBe(body.state === 47 ? body.exceptionCode : undefined);
      }),
      { numRuns: 300 },
    );
  });

  it("placementOf reads a body's trackingNumber, state, type, timeStamp and exceptionCode as parseWebhookEvent does, and refuses what it refuses", () => {
    const { seed, note } = propertySeed();
    const placement = (read: () => Placement) => {
      try {
        const { trackingNumber, state, type, timeStamp, exceptionCode } = read();
        return { trackingNumber, state, type, timeStamp, exceptionCode };
      } catch (err) {
        return { refused: err instanceof WebhookPayloadError ? [err.field, err.message] : err };
      }
    };
    // Each field of a valid body replaced, or left out: strings for numbers, ISO dates, null, nested values.
    const odd = fc.oneof(fc.jsonValue(), fc.constantFrom('47', ' 45 ', '2025-01-30T09:00:00Z', '1738227600000', '', null, 47, -1, 1.5, 2 ** 53));
    const body = fc.tuple(
      fc.constantFrom(24, 45, 47),
      fc.dictionary(fc.constantFrom('_id', 'trackingNumber', 'state', 'type', 'timeStamp', 'exceptionCode'), fc.option(odd)),
    );
    let refused = 0;
    fc.assert(
      fc.property(body, fc.boolean(), ([state, changes], asText) => {
        const changed: Record<string, unknown> = { ...webhookBody({ state }) };
        for (const [field, value] of Object.entries(changes)) {
          if (value === null) delete changed[field];
          else changed[field] = value;
        }
        const text = asText ? JSON.stringify(changed) : JSON.stringify(changed, null, 2);
        const expected = placement(() => parseWebhookEvent(text));
        if ('refused' in expected) refused++;
        expect(
          placement(() => placementOf(text)),
          text,
        ).toEqual(expected);
      }),
      { numRuns: 500, seed },
    );
    for (const text of ['', 'not json', '[1]', '"text"', 'null']) expect(placement(() => placementOf(text))).toEqual(placement(() => parseWebhookEvent(text)));
    expect(refused, note).toBeGreaterThan(20);
  });
});
