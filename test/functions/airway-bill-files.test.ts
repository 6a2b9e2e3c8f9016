// Labels for a day's orders (issue 32): more than 50 split into requests of 50, one PDF each with
// the tracking numbers it holds; orders the service will not print refused before sending.
import { describe, expect, it } from 'vitest';
import { type DeliveryRecord, ValidationError } from '../../src/index.js';
import { clientOnFetch } from '../support/fake-service.js';
import { dropOff, pickup, sandboxWithAccount } from '../support/sandbox.js';

const receiver = { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' };
const pagesOf = (pdf: Uint8Array): number => (new TextDecoder('latin1').decode(pdf).match(/\/Type\s*\/Page\b/g) ?? []).length;

describe('deliveries.airwayBillFiles', () => {
  it('prints 120 orders as three files of 50, 50 and 20, each holding its tracking numbers', async () => {
    const { client } = await sandboxWithAccount();
    const created = await Promise.all(
      Array.from({ length: 120 }, (_, i) => client.deliveries.create({ type: 10, dropOffAddress: dropOff, receiver, businessReference: `day-${i}` })),
    );
    const trackingNumbers = created.map((order) => order.trackingNumber);
    const { files } = await client.deliveries.airwayBillFiles(trackingNumbers, { size: 'A6' });
    expect(files.map((file) => file.trackingNumbers.length)).toEqual([50, 50, 20]);
    expect(files.flatMap((file) => file.trackingNumbers)).toEqual(trackingNumbers);
    expect(files.map((file) => pagesOf(file.pdf))).toEqual([50, 50, 20]);
  });

  it('refuses, by index and before sending, orders read as Cash Collection, Customer Return Pickup or finished', async () => {
    const { client, sent } = clientOnFetch(() => Response.json({ success: true, data: 'JVBERi0=' }));
    const order = (trackingNumber: string, type: number, state: number) => ({ trackingNumber, type: { code: type }, state: { code: state } }) as DeliveryRecord;
    const error = await client.deliveries
      .airwayBillFiles([order('70000001', 10, 10), order('70000002', 15, 10), order('70000003', 25, 10), order('70000004', 10, 45), '70000005'])
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([
      ['orders', 1],
      ['orders', 2],
      ['orders', 3],
    ]);
    expect((error as ValidationError).message).toContain('Cash Collection');
    await expect(client.deliveries.airwayBillFiles([])).rejects.toBeInstanceOf(ValidationError);
    await expect(client.deliveries.airwayBillFiles(['70000001', 'a,b'])).rejects.toBeInstanceOf(ValidationError);
    expect(sent).toEqual([]);
  });

  it('the sandbox leaves out what the service will not print when given tracking numbers alone', async () => {
    const { sandbox, client } = await sandboxWithAccount();
    const deliver = await client.deliveries.create({ type: 10, dropOffAddress: dropOff, receiver });
    const collect = await client.deliveries.create({ type: 15, pickupAddress: pickup, receiver, cod: 500 });
    const finished = await client.deliveries.create({ type: 10, dropOffAddress: dropOff, receiver });
    await sandbox.play(finished.trackingNumber, 'success');
    const pdf = await client.deliveries.airwayBills([deliver.trackingNumber, collect.trackingNumber, finished.trackingNumber]);
    expect(pagesOf(pdf)).toBe(1);
  });
});
