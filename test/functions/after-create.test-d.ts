import { describe, expectTypeOf, it } from 'vitest';
import {
  type DeliveryClient,
  type DeliveryRecord,
  type DeliveryState,
  isKnownState,
  type PickupDate,
  type PickupInput,
  type PickupTimeSlot,
} from '../../src/index.js';

declare const order: DeliveryRecord;
declare const client: DeliveryClient;
const contactPerson = { name: 'Omar', phone: '01098765432' };

describe('types of the calls after creation', () => {
  it('state.code is a DeliveryState (or an unknown number) and narrows on comparison', () => {
    expectTypeOf<NonNullable<DeliveryRecord['state']>['code']>().toExtend<number>();
    expectTypeOf<DeliveryState>().toExtend<NonNullable<DeliveryRecord['state']>['code']>();
    const code = order.state?.code;
    if (code !== undefined && isKnownState(code)) expectTypeOf(code).toEqualTypeOf<DeliveryState>();
    // @ts-expect-error a code is a number, not the text of state.value
    void (order.state?.code === 'Delivered');
    expectTypeOf(order.trackingNumber).toEqualTypeOf<string>();
    expectTypeOf(order.updatedAt).toEqualTypeOf<string | undefined>();
  });

  it('pickup time slots are a union of the two seen', () => {
    expectTypeOf<PickupTimeSlot>().toEqualTypeOf<'10:00 to 13:00' | '13:00 to 16:00'>();
    // @ts-expect-error a slot not seen
    const slot: PickupTimeSlot = '16:00 to 19:00';
    void slot;
  });

  it('a date that is not YYYY-MM-DD is refused by the compiler', () => {
    const date: PickupDate = '2026-03-12';
    // @ts-expect-error not a date
    const tomorrow: PickupDate = 'tomorrow';
    // @ts-expect-error day first
    const dayFirst: PickupDate = '12/03/2026';
    void [date, tomorrow, dayFirst];
    const pickup: PickupInput = { businessLocationId: 'loc', scheduledDate: '2026-03-12', scheduledTimeSlot: '10:00 to 13:00', contactPerson };
    // @ts-expect-error not a date
    void client.pickups.create({ ...pickup, scheduledDate: 'next Monday' });
  });

  it('a change to a pickup location may rename it, never clear its name', () => {
    void client.pickupLocations.update('loc', { locationName: 'Dokki warehouse', secondLine: null });
    // @ts-expect-error the service would store the null over the location's name
    void client.pickupLocations.update('loc', { locationName: null });
  });

  it('airwayBills resolves bytes; list is an async iterable of typed orders; findByReference may find nothing', () => {
    expectTypeOf(client.deliveries.airwayBills(['1'])).resolves.toEqualTypeOf<Uint8Array>();
    expectTypeOf(client.deliveries.list()).toExtend<AsyncIterable<DeliveryRecord>>();
    expectTypeOf(client.deliveries.findByReference('r')).resolves.toEqualTypeOf<DeliveryRecord | undefined>();
    // @ts-expect-error only A4 or A6
    void client.deliveries.airwayBills(['1'], { size: 'A5' });
  });
});

describe('an order as read names itself', () => {
  it('_id is a string, so terminate and update take it, or the record, as they are', () => {
    expectTypeOf(order._id).toEqualTypeOf<string>();
    void client.deliveries.terminate(order._id);
    void client.deliveries.terminate(order);
    void client.deliveries.update(order, { notes: 'Call first' });
  });
});
