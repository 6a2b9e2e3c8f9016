import type { FlowStep } from '../../src/catalogue/index.js';

/** 30 January 2025, 09:00 UTC: the morning the order left the warehouse. */
export const T0 = Date.UTC(2025, 0, 30, 9);
export const MINUTE = 60_000;

/**
 * A body as the service sends it (spec, Events 3): the tracking number as a number, as in the
 * spec's examples; cod only in 45, exception fields only in 47.
 */
export function webhookBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const state = (overrides['state'] ?? 24) as number;
  return {
    _id: '65b8c0f2a1d4e5f6a7b8c9d0',
    trackingNumber: 4_567_891_234,
    state,
    type: 'FXF_SEND',
    timeStamp: T0,
    isConfirmedDelivery: state === 45,
    deliveryPromiseDate: '02-02-2025',
    businessReference: 'NILE-ORDER-1042',
    numberOfAttempts: 0,
    ...(state === 45 ? { cod: 1250 } : {}),
    ...(state === 47 ? { exceptionReason: 'Customer is not answering', exceptionCode: 7 } : {}),
    ...overrides,
  };
}

/**
 * The webhooks one order of a documented flow produces, one per step, ten minutes apart. The
 * courier's runs (41) count as attempts; an exception names why the run failed.
 */
export function flowBodies(steps: readonly FlowStep[], trackingNumber = 4_567_891_234): Array<Record<string, unknown>> {
  let attempts = 0;
  return steps.map((step, i) => {
    if (step.state === 41) attempts++;
    return webhookBody({ trackingNumber, state: step.state, type: step.type, timeStamp: T0 + i * 10 * MINUTE, numberOfAttempts: attempts });
  });
}
