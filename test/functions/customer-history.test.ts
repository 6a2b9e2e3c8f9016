// Cash-on-delivery risk (issue 32): a customer's history by phone, counted from the search by
// `mobilePhones` in every spelling of the phone, against the sandbox (which stores phones as sent).
import { describe, expect, it } from 'vitest';
import { PagingError, PartialResultError, ValidationError } from '../../src/index.js';
import { clientOnFetch } from '../support/fake-service.js';
import { dropOff, sandboxWithAccount } from '../support/sandbox.js';

describe('deliveries.customerHistory', () => {
  it('counts delivered, returned and pending orders of every spelling of the phone, and only those', async () => {
    const { sandbox, client } = await sandboxWithAccount();
    const send = (phone: string) =>
      client.deliveries.create({ type: 10, dropOffAddress: dropOff, receiver: { firstName: 'Mona', lastName: 'Adel', phone }, cod: 300 });
    const orders = await Promise.all([send('01012345678'), send('+201012345678'), send('٠١٠١٢٣٤٥٦٧٨'), send('01012345678'), send('01199998888')]);
    await sandbox.play(orders[0]!.trackingNumber, 'success');
    await sandbox.play(orders[1]!.trackingNumber, 'success');
    await sandbox.play(orders[2]!.trackingNumber, 'unsuccessful');
    await sandbox.play(orders[4]!.trackingNumber, 'unsuccessful');

    const history = await client.deliveries.customerHistory('+20 10 1234 5678');
    expect(history).toEqual({ total: 4, delivered: 2, returned: 1, pending: 1, rate: 2 / 3, repeated: 0 });
    expect(await client.deliveries.customerHistory('01000000000')).toEqual({ total: 0, delivered: 0, returned: 0, pending: 0, rate: undefined, repeated: 0 });
  });

  it('refuses a phone that is not one, before sending', async () => {
    const { client, sent } = clientOnFetch(() => Response.json({ success: true, data: { deliveries: [] } }));
    await expect(client.deliveries.customerHistory('call me')).rejects.toBeInstanceOf(ValidationError);
    await expect(client.deliveries.customerHistory(undefined as never)).rejects.toBeInstanceOf(ValidationError);
    expect(sent).toEqual([]);
  });

  it('is bounded: a service that never answers a short page ends in a PagingError, the orders counted so far beside it', async () => {
    const { client, sent } = clientOnFetch((_, index) => {
      const page = index + 1;
      const deliveries = Array.from({ length: 50 }, (_, i) => ({ _id: `o-${page * 100 + i}`, trackingNumber: String(page * 100 + i), state: { code: 45 } }));
      return Response.json({ success: true, data: { deliveries, count: 10_000, page, limit: 50 } });
    });
    const error = (await client.deliveries.customerHistory('01012345678', { maxPages: 3 }).catch((err: unknown) => err)) as PartialResultError;
    expect(error).toBeInstanceOf(PartialResultError);
    expect(error.cause).toBeInstanceOf(PagingError);
    expect(error.partial).toMatchObject({ total: 150, delivered: 150 });
    expect(sent).toHaveLength(3);
  });
});
