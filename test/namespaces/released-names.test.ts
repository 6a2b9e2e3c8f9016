// The namespace classes were released (0.1.0) as `*Resource`; they are named `*Namespace` now, and
// the released names stay, deprecated, as the same classes: code naming them goes on working.
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as sdk from '../../src/index.js';

const NAMESPACES = ['Businesses', 'Deliveries', 'Fulfillment', 'Lookup', 'PickupLocations', 'Pickups', 'Pricing', 'Users'] as const;

describe('the released names of the namespace classes', () => {
  it.each(NAMESPACES)('%sResource is %sNamespace', (name) => {
    expect(sdk[`${name}Resource`]).toBe(sdk[`${name}Namespace`]);
  });

  it('still hold what the client shows, for `instanceof` and in types', () => {
    const client = new sdk.DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: 'k' });
    expect(client.deliveries).toBeInstanceOf(sdk.DeliveriesResource);
    expect(client.pickupLocations).toBeInstanceOf(sdk.PickupLocationsResource);
    expectTypeOf(client.deliveries).toEqualTypeOf<sdk.DeliveriesResource>();
    expectTypeOf<sdk.LookupResource>().toEqualTypeOf<sdk.LookupNamespace>();
  });
});
