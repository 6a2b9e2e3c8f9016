import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createOrderTracker,
  createWebhookHandler,
  type DeliveredEvent,
  DeliveryState,
  type ExceptionEvent,
  parseWebhookEvent,
  type StateChangeEvent,
  type UnknownStateEvent,
  type WebhookEvent,
  type WebhookEventFor,
  type WebhookIssue,
  type WebhookOrderType,
} from '../../src/webhooks/index.js';
import { createNodeWebhookHandler } from '../../src/webhooks/node.js';

declare const body: string;

describe('what could not be read', () => {
  it('is listed in issues, absent when everything was read; type and timeStamp may be absent', () => {
    const event = parseWebhookEvent(body);
    expectTypeOf(event.issues).toEqualTypeOf<readonly WebhookIssue[] | undefined>();
    expectTypeOf(event.type).toEqualTypeOf<WebhookOrderType | (string & {}) | undefined>();
  });
});

describe('WebhookEvent narrows on state', () => {
  it('types exceptionCode in 47 and cod in 45', () => {
    const event = parseWebhookEvent(body);
    if (event.state === 47) {
      expectTypeOf(event.exceptionCode).toEqualTypeOf<number | undefined>();
      expectTypeOf(event.exceptionReason).toEqualTypeOf<string>();
      expectTypeOf(event).toEqualTypeOf<ExceptionEvent>();
    }
    if (event.state === DeliveryState.Delivered) {
      expectTypeOf(event.cod).toEqualTypeOf<number>();
      expectTypeOf(event).toEqualTypeOf<DeliveredEvent>();
    }
    switch (event.state) {
      case 47:
        expectTypeOf(event.exceptionCode).toEqualTypeOf<number | undefined>();
        break;
      case 24:
        expectTypeOf(event).toEqualTypeOf<StateChangeEvent<24>>();
        break;
    }
  });

  it('leaves cod and exceptionCode possibly undefined before narrowing', () => {
    const event = parseWebhookEvent(body);
    expectTypeOf(event.cod).toEqualTypeOf<number | undefined>();
    expectTypeOf(event.exceptionCode).toEqualTypeOf<number | undefined>();
    // @ts-expect-error not every event carries an exception code
    event.exceptionCode.toFixed();
  });

  it('still lets a code the SDK does not know yet be compared, and narrows on stateKnown', () => {
    const event = parseWebhookEvent(body);
    if (event.state === 106) expectTypeOf(event).toEqualTypeOf<UnknownStateEvent>();
    if (!event.stateKnown) expectTypeOf(event).toEqualTypeOf<UnknownStateEvent>();
    expectTypeOf(event.state).toMatchTypeOf<number>();
  });

  it('types the fields every event has', () => {
    const event = parseWebhookEvent(body);
    expectTypeOf(event.trackingNumber).toEqualTypeOf<string>();
    expectTypeOf(event.timeStamp).toEqualTypeOf<number | undefined>();
    expectTypeOf(event.deliveryPromiseDay).toEqualTypeOf<Date | undefined>();
    expectTypeOf(event.known).toEqualTypeOf<boolean>();
    expectTypeOf(event.raw).toEqualTypeOf<Readonly<Record<string, unknown>>>();
  });

  it('picks one state with WebhookEventFor', () => {
    expectTypeOf<WebhookEventFor<45>>().toEqualTypeOf<DeliveredEvent>();
    expectTypeOf<WebhookEventFor<47>>().toEqualTypeOf<ExceptionEvent>();
    expectTypeOf<WebhookEventFor<60>>().toEqualTypeOf<StateChangeEvent<60>>();
  });
});

describe('createWebhookHandler types each state callback', () => {
  it('gives on[47] an exception event and on[45] a delivered one', () => {
    const handler = createWebhookHandler({
      on: {
        45: (event) => expectTypeOf(event.cod).toEqualTypeOf<number>(),
        47: async (event) => expectTypeOf(event.exceptionCode).toEqualTypeOf<number | undefined>(),
        41: (event, request) => {
          expectTypeOf(event.state).toEqualTypeOf<41>();
          expectTypeOf(request).toEqualTypeOf<Request>();
        },
      },
      onEvent: (event) => expectTypeOf(event).toEqualTypeOf<WebhookEvent>(),
    });
    expectTypeOf(handler).toEqualTypeOf<(request: Request) => Promise<Response>>();
  });

  it('types callbacks keyed by the DeliveryState constants', () => {
    createWebhookHandler({
      on: {
        [DeliveryState.Delivered]: (event) => expectTypeOf(event.cod).toEqualTypeOf<number>(),
        [DeliveryState.Exception]: (event) => expectTypeOf(event.exceptionCode).toEqualTypeOf<number | undefined>(),
      },
    });
  });

  it('refuses what cannot work', () => {
    // @ts-expect-error a header name without its value
    createWebhookHandler({ auth: { name: 'X-Webhook-Key' } });
    // @ts-expect-error a state the catalogue does not have: use onEvent
    createWebhookHandler({ on: { 999: () => {} } });
    // @ts-expect-error a 45 callback does not get an exception code
    createWebhookHandler({ on: { 45: (event: ExceptionEvent) => event.exceptionCode } });
  });
});

describe('the Node adapter', () => {
  it('is a node:http request listener and an Express handler', () => {
    const handle = createNodeWebhookHandler({ on: { 47: (event) => expectTypeOf(event.exceptionCode).toEqualTypeOf<number | undefined>() } });
    createServer(handle);
    type ExpressRequest = IncomingMessage & { body: any; params: Record<string, string> };
    const route: (req: ExpressRequest, res: ServerResponse, next: (err?: unknown) => void) => void = handle;
    expectTypeOf(route).toBeFunction();
  });
});

describe('the tracker', () => {
  it('returns events and whether they changed the order', () => {
    const result = createOrderTracker().track(parseWebhookEvent(body));
    expectTypeOf(result.changed).toEqualTypeOf<boolean>();
    expectTypeOf(result.current).toEqualTypeOf<WebhookEvent>();
    expectTypeOf(createOrderTracker().history('1')).toEqualTypeOf<readonly WebhookEvent[]>();
  });
});
