import { describe, expect, it } from 'vitest';
import * as catalogue from '../../src/catalogue/index.js';
import * as webhooks from '../../src/webhooks/index.js';
import {
  DeliveryState,
  describeException,
  describeState,
  FAILED_ATTEMPT_TRANSITIONS,
  FULFILLMENT_FLOWS,
  FULFILLMENT_TRANSITIONS,
  isFinalState,
  isKnownState,
  STATES,
} from '../../src/webhooks/index.js';

// The spec's States table, row by row: code, state name, dashboard state, applies to. "All" is
// read as every webhook type, Cash Collection's included (its type string is the SDK's assumption),
// "Fulfillment" as FXF_SEND.
const ALL = ['SEND', 'CASH_COLLECTION', 'EXCHANGE', 'CUSTOMER_RETURN_PICKUP', 'RTO', 'SIGN_AND_RETURN', 'FXF_SEND'];
const ALL_BUT_CASH = ALL.filter((type) => type !== 'CASH_COLLECTION');
const SPEC_STATES: ReadonlyArray<readonly [number, string, string, readonly string[]]> = [
  [10, 'Pickup requested', 'New', ALL_BUT_CASH],
  [11, 'Waiting for route', 'In progress', ['CASH_COLLECTION']],
  [20, 'Route Assigned', 'In progress', ALL],
  [22, 'Picking up from consignee', 'Heading to customer', ['CUSTOMER_RETURN_PICKUP', 'EXCHANGE']],
  [40, 'Picking up', 'Heading to customer', ['CASH_COLLECTION']],
  [21, 'Picked up from business', 'Picked up', ['SEND', 'EXCHANGE']],
  [23, 'Picked up from consignee', 'Picked up', ['CUSTOMER_RETURN_PICKUP', 'EXCHANGE']],
  [41, 'Picked up', 'Heading to customer', ['SEND', 'FXF_SEND', 'EXCHANGE', 'CUSTOMER_RETURN_PICKUP', 'RTO']],
  [24, 'Received at warehouse', 'In progress', ALL_BUT_CASH],
  [25, 'Fulfilled', 'Fulfilled', ['FXF_SEND']],
  [30, 'In transit between Hubs', 'In progress', ALL_BUT_CASH],
  [45, 'Delivered', 'Successful', ['SEND', 'FXF_SEND', 'CASH_COLLECTION']],
  [46, 'Returned to business', 'Successful', ['EXCHANGE', 'CUSTOMER_RETURN_PICKUP', 'RTO']],
  [47, 'Exception', 'In progress', ALL],
  [49, 'Canceled', 'In progress', ALL],
  [48, 'Terminated', 'Terminated', ALL],
  [100, 'Lost', 'Unsuccessful', ALL],
  [101, 'Damaged', 'Unsuccessful', ALL_BUT_CASH],
  [60, 'Returned to stock', 'Returned', ['FXF_SEND']],
  [102, 'Investigation', 'In progress', ALL],
  [103, 'Awaiting your action', 'Awaiting your action', ['EXCHANGE', 'CUSTOMER_RETURN_PICKUP', 'RTO']],
  [104, 'Archived', 'Archived', ALL_BUT_CASH],
  [105, 'On hold', 'In progress', ALL_BUT_CASH],
];

// The spec's exception reason tables (Events 4 and 5): code and reason.
const FORWARD_REASONS: ReadonlyArray<readonly [number, string]> = [
  [1, 'Retry delivery, customer not at the address'],
  [2, 'Retry delivery, customer changed the address'],
  [3, 'Postponed, customer requested another day'],
  [4, 'Cancellation, customer wants to open the shipment'],
  [5, 'Waiting for data modification, address or phone unclear or wrong'],
  [6, 'Cancellation at the request of the sender'],
  [7, 'Customer is not answering'],
  [8, 'Cancellation, customer refuses to receive'],
  [12, 'Cancellation, address outside coverage area'],
  [13, 'Waiting for data modification, address not clear'],
  [14, 'Waiting for data modification, wrong phone number'],
  [100, 'Bad weather'],
  [101, 'Suspicious consignee'],
];
const RETURN_REASONS: ReadonlyArray<readonly [number, string]> = [
  [20, 'Retry return, business changed the address'],
  [21, 'Postponed, business requested another day'],
  [22, 'Waiting for data modification, address or phone unclear or wrong'],
  [23, 'Business is not answering'],
  [24, 'Business refused to receive the shipment'],
  [25, 'Retry return, business not at the address'],
  [26, 'The order is damaged'],
  [27, 'Empty order'],
  [28, 'The order is incomplete'],
  [29, 'The order does not belong to the business'],
  [30, 'The order was opened while it should not'],
  [100, 'Bad weather'],
  [101, 'Suspicious consignee'],
];

describe('every state of the States table is described', () => {
  it.each(SPEC_STATES)('%i: %s (%s)', (code, name, dashboardState, appliesTo) => {
    expect(Object.values(DeliveryState)).toContain(code);
    expect([...STATES[code as DeliveryState].appliesTo].sort()).toEqual([...appliesTo].sort());
    for (const type of appliesTo) {
      const described = describeState(code, type);
      expect(described).toMatchObject({ code, known: true, name });
      expect(described.meaning.length).toBeGreaterThan(0);
    }
    expect(describeState(code, 'SEND').dashboardState).toBe(dashboardState);
  });

  it('has no state the spec does not list, in STATES and in DeliveryState (which isKnownState reads) alike', () => {
    const spec = SPEC_STATES.map(([code]) => code).sort((a, b) => a - b);
    expect(
      Object.keys(STATES)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(spec);
    expect(Object.values(DeliveryState).sort((a, b) => a - b)).toEqual(spec);
    for (const code of spec) expect(isKnownState(code)).toBe(true);
  });

  it('words 41, 22 and 40 by order type, as the spec does', () => {
    expect(describeState(41, 'SEND').meaning).toMatch(/out for delivery/i);
    expect(describeState(41, 'FXF_SEND').meaning).toMatch(/out for delivery/i);
    for (const type of ['CUSTOMER_RETURN_PICKUP', 'RTO', 'EXCHANGE']) {
      expect(describeState(41, type)).toMatchObject({ dashboardState: 'Heading to you', meaning: expect.stringMatching(/out for return/i) });
    }
    expect(describeState(22, 'CUSTOMER_RETURN_PICKUP').meaning).toMatch(/out for pickup/i);
    expect(describeState(22, 'EXCHANGE').meaning).toMatch(/out for exchange/i);
    expect(describeState(40, 'CASH_COLLECTION').meaning).toMatch(/collect(ing)? (cash|money)/i);
  });

  it('describes a state it does not know without throwing', () => {
    expect(describeState(106, 'SEND')).toMatchObject({ code: 106, known: false, dashboardState: undefined });
  });

  it('calls final exactly the states that settle the outcome: not Archived, which follows them, nor Canceled (dashboard "In progress")', () => {
    const final = SPEC_STATES.map(([code]) => code).filter(isFinalState);
    expect(final.sort((a, b) => a - b)).toEqual([45, 46, 48, 60, 100, 101]);
    expect(isFinalState(104)).toBe(false);
    expect(isFinalState(49)).toBe(false);
    expect(isFinalState(106)).toBe(false);
  });

  it('agrees with the transitions the SDK knows: a "notify when final" fires once per flow, and after a final state only Archived follows', async () => {
    const { sandboxWithAccount } = await import('../support/sandbox.js');
    const { sandbox, client } = await sandboxWithAccount();
    try {
      const { DeliveryType } = await import('../../src/index.js');
      const dropOffAddress = { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street, 3rd floor' };
      const { trackingNumber } = await client.deliveries.create({ type: DeliveryType.Deliver, dropOffAddress, cod: 100 });
      const played = await sandbox.play(trackingNumber, 'success');
      expect(sandbox.nextStates(trackingNumber)).toEqual([104]);
      const archived = await sandbox.advance(trackingNumber, { to: 104 });
      const states = [...played, ...archived].map((event) => event.state);
      expect(states.slice(-2)).toEqual([45, 104]);
      expect(states.filter(isFinalState)).toEqual([45]);
    } finally {
      await sandbox.close();
    }
  });
});

describe('every exception code is described', () => {
  it.each(FORWARD_REASONS)('forward %i: %s', (code, reason) => {
    expect(describeException(code, 'forward')).toEqual({ code, direction: 'forward', known: true, reason });
  });

  it.each(RETURN_REASONS)('return %i: %s', (code, reason) => {
    expect(describeException(code, 'return')).toEqual({ code, direction: 'return', known: true, reason });
  });

  it('has no code the spec does not list', () => {
    expect(Object.entries(webhooks.ForwardExceptionReason)).toEqual(FORWARD_REASONS.map(([code, reason]) => [String(code), reason]));
    expect(Object.entries(webhooks.ReturnExceptionReason)).toEqual(RETURN_REASONS.map(([code, reason]) => [String(code), reason]));
  });

  it('reads 20-30 as returns and the rest as forward when no direction is given', () => {
    expect(describeException(23).reason).toBe('Business is not answering');
    expect(describeException(7).reason).toBe('Customer is not answering');
    expect(describeException(100).reason).toBe('Bad weather');
  });

  it('flags codes of neither table', () => {
    expect(describeException(9, 'forward').known).toBe(false);
    expect(describeException(31, 'return').known).toBe(false);
  });
});

// The spec's "Transitions shown" table, from and to of each row in order.
const SPEC_TRANSITIONS = [
  ['start', 10],
  [10, 25],
  [25, 24],
  [24, 30],
  [30, 24],
  [24, 41],
  [41, 45],
  [41, 47],
  [47, 24],
  [24, 41],
  [24, 24],
  [24, 30],
  [24, 60],
];
// The three flows as that table's rows chain them; R: the type is RTO by then (it changes at the second 24 -> 24).
const SPEC_FLOWS = {
  success: '10 25 24 30 24 41 45',
  exceptionThenSuccess: '10 25 24 30 24 41 47 24 41 45',
  unsuccessful: '10 25 24 30 24 41 47 24 24R 30R 24R 60R',
};

describe('the documented flows follow the documented transitions', () => {
  it('has the rows of the transitions table, in order', () => {
    expect(FULFILLMENT_TRANSITIONS.map((row) => [row.from, row.to])).toEqual(SPEC_TRANSITIONS);
  });

  it.each(Object.entries(SPEC_FLOWS))('%s: %s', (name, flow) => {
    const steps = FULFILLMENT_FLOWS[name as keyof typeof FULFILLMENT_FLOWS];
    expect(steps.map((step) => `${step.state}${step.type === 'RTO' ? 'R' : ''}`).join(' ')).toBe(flow);
    expect(steps.every((step) => step.type === 'FXF_SEND' || step.type === 'RTO')).toBe(true);
    for (let i = 1; i < steps.length; i++) {
      const from = steps[i - 1]?.state;
      const to = steps[i]?.state;
      expect(
        SPEC_TRANSITIONS.some(([a, b]) => a === from && b === to),
        `${from} -> ${to}`,
      ).toBe(true);
    }
  });

  it('has no flow the spec does not show', () => {
    expect(Object.keys(FULFILLMENT_FLOWS).sort()).toEqual(Object.keys(SPEC_FLOWS).sort());
  });

  it('ends three failed attempts in Terminated (return pickup, cash collection) or Awaiting your action (returns)', () => {
    expect(FAILED_ATTEMPT_TRANSITIONS.map((row) => [row.from, row.to])).toEqual([
      [47, 48],
      [47, 103],
    ]);
  });
});

describe('the order types table', () => {
  it('gives each type its numeric code (fulfillment: its string) and its webhook type string', () => {
    expect(catalogue.DeliveryType).toEqual({ Deliver: 10, CashCollection: 15, CustomerReturnPickup: 25, Exchange: 30 });
    expect(catalogue.FulfillmentType).toEqual({ Send: 'FXF_SEND', CustomerReturnPickup: 'CUSTOMER_RETURN_PICKUP' });
    // The spec does not show Cash Collection's webhook string; CASH_COLLECTION is the SDK's assumption.
    expect(catalogue.webhookTypeOf).toEqual({
      10: 'SEND',
      15: 'CASH_COLLECTION',
      25: 'CUSTOMER_RETURN_PICKUP',
      30: 'EXCHANGE',
      FXF_SEND: 'FXF_SEND',
      CUSTOMER_RETURN_PICKUP: 'CUSTOMER_RETURN_PICKUP',
    });
  });
});

describe('the webhooks entry re-exports the catalogues users need', () => {
  it.each([
    'DeliveryState',
    'STATES',
    'describeState',
    'isFinalState',
    'ExceptionReason',
    'ForwardExceptionReason',
    'ReturnExceptionReason',
    'describeException',
    'WebhookOrderType',
    'FULFILLMENT_TRANSITIONS',
    'FULFILLMENT_FLOWS',
    'FAILED_ATTEMPT_TRANSITIONS',
  ] as const)('%s, the very same object', (name) => {
    expect(webhooks[name]).toBeDefined();
    expect(webhooks[name]).toBe(catalogue[name]);
  });
});
