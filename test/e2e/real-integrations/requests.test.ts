// Every order body a public integration sends (test/fixtures/real/requests) replayed through
// validateOrder and deliveries.create, against a plain node:http service on 127.0.0.1 and against
// the sandbox: accepted and sent exactly as the integration wrote it, or refused naming the field.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryClient, DeliveryError, type OrderInput, type ValidationIssue } from '../../../src/index.js';
import type { Sandbox } from '../../../src/testing/index.js';
import { checkOrder, validateOrder } from '../../../src/validation.js';
import { REQUEST_FIXTURES, type RequestFixture } from '../../fixtures/real/requests/index.js';
import { MAKRAM_EBEID, sandboxWithAccount } from '../../support/sandbox.js';
import { startWireRecorder, type WireRecorder } from '../../support/wire-recorder.js';

const accepted = REQUEST_FIXTURES.filter((fixture) => 'accepted' in fixture.outcome);
const refused = REQUEST_FIXTURES.filter((fixture): fixture is RequestFixture & { outcome: { refusedAt: readonly string[] } } => 'refusedAt' in fixture.outcome);
/** What JSON carries of a value: what the service receives. */
const onTheWire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const pathText = (issue: ValidationIssue): string => issue.path.join('.');

function refusal(run: () => unknown): DeliveryError & { issues: readonly ValidationIssue[] } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DeliveryError);
    return error as DeliveryError & { issues: readonly ValidationIssue[] };
  }
  throw new Error('expected a refusal');
}

it('there are fixtures of both outcomes', () => {
  expect(accepted.length).toBeGreaterThanOrEqual(3);
  expect(refused.length).toBeGreaterThanOrEqual(2);
});

describe.each(accepted.map((fixture) => [fixture.name, fixture] as const))('accepted: %s', (_, fixture) => {
  it('validateOrder returns it as written', () => {
    expect(onTheWire(validateOrder(fixture.body))).toEqual(onTheWire(fixture.body));
    expect(checkOrder(fixture.body).ok).toBe(true);
  });
});

describe.each(refused.map((fixture) => [fixture.name, fixture] as const))('refused: %s', (_, fixture) => {
  it('validateOrder refuses it, naming every field at fault, and the message names them', () => {
    const error = refusal(() => validateOrder(fixture.body));
    expect(error.issues.map(pathText).sort()).toEqual([...fixture.outcome.refusedAt].sort());
    for (const field of fixture.outcome.refusedAt) expect(error.message).toContain(field);
  });
});

describe('deliveries.create against a plain node:http service on 127.0.0.1', () => {
  let service: WireRecorder;
  let client: DeliveryClient;
  beforeAll(async () => {
    service = await startWireRecorder();
    client = new DeliveryClient({ baseUrl: service.baseUrl, apiKey: 'sk_test_fixture', maxRetries: 0 });
  });
  afterAll(() => service.close());
  beforeEach(() => {
    service.requests.length = 0;
  });

  it.each(accepted.map((fixture) => [fixture.name, fixture] as const))('%s: sent once, the body equal to what the integration sent', async (_, fixture) => {
    const order = await client.deliveries.create(fixture.body as unknown as OrderInput);
    expect(order.trackingNumber).toMatch(/^\d+$/);
    expect(service.requests).toEqual([{ method: 'POST', path: '/v2/deliveries?apiVersion=1', body: onTheWire(fixture.body) }]);
  });

  it.each(refused.map((fixture) => [fixture.name, fixture] as const))('%s: refused naming the field, nothing sent', async (_, fixture) => {
    const error = await client.deliveries.create(fixture.body as unknown as OrderInput).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(DeliveryError);
    for (const field of fixture.outcome.refusedAt) expect((error as Error).message).toContain(field);
    expect(service.requests).toEqual([]);
  });
});

/**
 * The sandbox knows its own cities and districts only, not the live service's ids and names: the
 * location of each address is swapped for one of the sandbox's, every other field kept as sent.
 */
function inSandboxCity(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const key of ['dropOffAddress', 'pickupAddress', 'returnAddress']) {
    const address = body[key];
    if (typeof address !== 'object' || address === null) continue;
    const {
      city: _city,
      cityId: _cityId,
      zoneId: _zoneId,
      zone: _zone,
      district: _district,
      districtName: _districtName,
      ...rest
    } = address as Record<string, unknown>;
    out[key] = { ...rest, city: 'Cairo', districtId: MAKRAM_EBEID };
  }
  return out;
}

describe('deliveries.create against the sandbox', () => {
  let sandbox: Sandbox;
  let client: DeliveryClient;
  beforeAll(async () => {
    ({ sandbox, client } = await sandboxWithAccount());
  });
  afterAll(() => sandbox.close());

  it.each(accepted.map((fixture) => [fixture.name, fixture] as const))('%s: created, and the sandbox received it as sent', async (_, fixture) => {
    const body = inSandboxCity(fixture.body);
    const order = await client.deliveries.create(body as unknown as OrderInput);
    const stored = sandbox.orders().find((record) => record.trackingNumber === order.trackingNumber);
    expect(stored?.request).toEqual(onTheWire(body));
  });

  it.each(refused.map((fixture) => [fixture.name, fixture] as const))(
    '%s: the SDK refuses it naming the field; sent unchecked, the sandbox refuses it too, naming the part at fault',
    async (_, fixture) => {
      const checked = await client.deliveries.create(fixture.body as unknown as OrderInput).catch((reason: unknown) => reason);
      for (const field of fixture.outcome.refusedAt) expect((checked as Error).message).toContain(field);
      const unchecked = await client.deliveries.create(fixture.body as unknown as OrderInput, { validate: false }).catch((reason: unknown) => reason);
      expect(unchecked).toBeInstanceOf(DeliveryError);
      const parts = fixture.outcome.refusedAt.map((field) => field.split('.')[0] as string);
      expect(parts.some((part) => (unchecked as Error).message.includes(part))).toBe(true);
    },
  );
});
