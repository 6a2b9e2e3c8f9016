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
  STATES,
} from '../../src/webhooks/index.js';

// The spec's States table, row by row: code, state name, dashboard state.
const SPEC_STATES: ReadonlyArray<readonly [number, string, string]> = [
  [10, 'Pickup requested', 'New'],
  [11, 'Waiting for route', 'In progress'],
  [20, 'Route Assigned', 'In progress'],
  [22, 'Picking up from consignee', 'Heading to customer'],
  [40, 'Picking up', 'Heading to customer'],
  [21, 'Picked up from business', 'Picked up'],
  [23, 'Picked up from consignee', 'Picked up'],
  [41, 'Picked up', 'Heading to customer'],
  [24, 'Received at warehouse', 'In progress'],
  [25, 'Fulfilled', 'Fulfilled'],
  [30, 'In transit between Hubs', 'In progress'],
  [45, 'Delivered', 'Successful'],
  [46, 'Returned to business', 'Successful'],
  [47, 'Exception', 'In progress'],
  [49, 'Canceled', 'In progress'],
  [48, 'Terminated', 'Terminated'],
  [100, 'Lost', 'Unsuccessful'],
  [101, 'Damaged', 'Unsuccessful'],
  [60, 'Returned to stock', 'Returned'],
  [102, 'Investigation', 'In progress'],
  [103, 'Awaiting your action', 'Awaiting your action'],
  [104, 'Archived', 'Archived'],
  [105, 'On hold', 'In progress'],
];

const FORWARD_CODES = [1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 100, 101];
const RETURN_CODES = [20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 100, 101];

describe('every state of the States table is described', () => {
  it.each(SPEC_STATES)('%i: %s (%s)', (code, name, dashboardState) => {
    expect(Object.values(DeliveryState)).toContain(code);
    for (const type of STATES[code as DeliveryState].appliesTo) {
      const described = describeState(code, type);
      expect(described).toMatchObject({ code, known: true, name });
      expect(described.meaning.length).toBeGreaterThan(0);
    }
    expect(describeState(code, 'SEND').dashboardState).toBe(dashboardState);
  });

  it('has no state the spec does not list', () => {
    expect(Object.keys(STATES).map(Number).sort((a, b) => a - b)).toEqual(SPEC_STATES.map(([code]) => code).sort((a, b) => a - b));
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

  it('calls final exactly the states after which nothing follows', () => {
    const final = SPEC_STATES.map(([code]) => code).filter(isFinalState);
    expect(final.sort((a, b) => a - b)).toEqual([45, 46, 48, 49, 60, 100, 101, 104]);
    expect(isFinalState(106)).toBe(false);
  });
});

describe('every exception code is described', () => {
  it.each(FORWARD_CODES)('forward %i', (code) => {
    expect(describeException(code, 'forward')).toMatchObject({ code, direction: 'forward', known: true, reason: webhooks.ForwardExceptionReason[code as keyof typeof webhooks.ForwardExceptionReason] });
  });

  it.each(RETURN_CODES)('return %i', (code) => {
    expect(describeException(code, 'return')).toMatchObject({ code, direction: 'return', known: true, reason: webhooks.ReturnExceptionReason[code as keyof typeof webhooks.ReturnExceptionReason] });
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

describe('the documented flows follow the documented transitions', () => {
  it.each(Object.entries(FULFILLMENT_FLOWS))('%s: every step is a row of the transitions table', (_, steps) => {
    expect(steps[0]?.state).toBe(10);
    for (let i = 1; i < steps.length; i++) {
      const from = steps[i - 1]?.state;
      const to = steps[i]?.state;
      expect(FULFILLMENT_TRANSITIONS.some((row) => row.from === from && row.to === to), `${from} -> ${to}`).toBe(true);
    }
  });

  it('ends in Delivered, or in Returned to stock as RTO', () => {
    expect(FULFILLMENT_FLOWS.success.at(-1)).toEqual({ state: 45, type: 'FXF_SEND' });
    expect(FULFILLMENT_FLOWS.exceptionThenSuccess.at(-1)).toEqual({ state: 45, type: 'FXF_SEND' });
    expect(FULFILLMENT_FLOWS.unsuccessful.at(-1)).toEqual({ state: 60, type: 'RTO' });
  });

  it('ends three failed attempts in Terminated (return pickup, cash collection) or Awaiting your action (returns)', () => {
    expect(FAILED_ATTEMPT_TRANSITIONS.map((row) => [row.from, row.to])).toEqual([[47, 48], [47, 103]]);
  });
});

describe('the webhooks entry re-exports the catalogues users need', () => {
  it.each([
    'DeliveryState', 'STATES', 'describeState', 'isFinalState', 'ExceptionReason', 'ForwardExceptionReason', 'ReturnExceptionReason',
    'describeException', 'WebhookOrderType', 'FULFILLMENT_TRANSITIONS', 'FULFILLMENT_FLOWS', 'FAILED_ATTEMPT_TRANSITIONS',
  ] as const)('%s, the very same object', (name) => {
    expect(webhooks[name]).toBeDefined();
    expect(webhooks[name]).toBe(catalogue[name]);
  });
});
