import { expect } from 'vitest';
import { cairoAddress, receiver } from '../../bench/lib/order.mjs';
import { DeliveryError } from '../../src/index.js';

export { cairoAddress, receiver };

export const imageUrls = (count: number) => Array.from({ length: count }, (_, i) => `https://cdn.example-shop.com/products/100234/photo-${i + 1}.jpg`);

/** One valid order of each type, built fresh on each call so a test can change it. */
export const validOrders = {
  deliver: () => ({
    type: 10,
    dropOffAddress: cairoAddress(),
    receiver: receiver(),
    cod: 1250,
    specs: { packageType: 'SMALL', packageDetails: { description: 'Two cotton shirts', itemsCount: 2 } },
  }),
  cashCollection: () => ({ type: 15, pickupAddress: cairoAddress(), receiver: receiver(), cod: 500 }),
  customerReturnPickup: () => ({ type: 25, pickupAddress: cairoAddress(), receiver: receiver(), cod: -200 }),
  exchange: () => ({ type: 30, dropOffAddress: cairoAddress(), receiver: receiver(), cod: 100 }),
  fulfillmentSend: () => ({
    type: 'FXF_SEND',
    dropOffAddress: cairoAddress(),
    receiver: receiver(),
    fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 2, name: 'Cotton shirt' }] },
  }),
  fulfillmentReturn: () => ({
    type: 'CUSTOMER_RETURN_PICKUP',
    pickupAddress: cairoAddress(),
    receiver: receiver(),
    fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 1 }] },
    originalFulfillmentTrackingNumber: '7234258',
  }),
};

/** The error `run` throws; fails the test if it throws nothing or something that is not a DeliveryError. */
export function thrownBy(
  run: () => unknown,
): DeliveryError & { issues: ReadonlyArray<{ path: ReadonlyArray<string | number>; message: string; errorCode?: number }> } {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DeliveryError);
  const error = caught as DeliveryError & { issues?: unknown };
  expect(Array.isArray(error.issues)).toBe(true);
  return error as ReturnType<typeof thrownBy>;
}

/** The issue paths of an error, in the `a.b[0]` notation of its messages. */
export const pathsOf = (error: ReturnType<typeof thrownBy>) => error.issues.map((issue) => issue.path.map(String).join('.'));
