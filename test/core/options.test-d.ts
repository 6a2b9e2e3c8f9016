import type { Hooks } from 'ky';
import { describe, expectTypeOf, it } from 'vitest';
import { DeliveryClient, type DeliveryClientOptions } from '../../src/index.js';

describe('kyHooks', () => {
  it('takes ky hooks, typed as ky types them', () => {
    expectTypeOf<DeliveryClientOptions['kyHooks']>().toEqualTypeOf<Hooks | undefined>();
    new DeliveryClient({
      baseUrl: 'https://api.example.com/v2',
      kyHooks: { beforeRequest: [(request) => request.headers.set('x-trace-id', 'abc')] },
    });
    new DeliveryClient({
      baseUrl: 'https://api.example.com/v2',
      // @ts-expect-error a hook list must be an array of functions
      kyHooks: { beforeRequest: (request: Request) => request },
    });
    new DeliveryClient({
      baseUrl: 'https://api.example.com/v2',
      // @ts-expect-error no such ky hook
      kyHooks: { onRequest: [] },
    });
  });
});
