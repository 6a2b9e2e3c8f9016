import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { upload } from '../../src/cli/import.js';
import { readyMerchant } from '../../src/cli/ready-merchant.js';
import { Ledger, type RowResult, type RowSink } from '../../src/cli/results.js';
import { DeliveryClient } from '../../src/index.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { numberedOrder } from '../support/sandbox.js';

// How an import settles the rows left open when something fails on the way: a row whose order was
// created is never written 'not sent' (sent again, it would be created twice). The upload in
// process, against the sandbox, with the results written to sinks the test holds.
let sandbox: Sandbox;
let client: DeliveryClient;
beforeEach(async () => {
  sandbox = createSandbox();
  await readyMerchant(sandbox);
  client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await sandbox.close();
});

const OPTIONS = { file: 'orders.csv', format: 'csv', encoding: 'utf-8', chunkSize: 2, concurrency: 1 } as const;

/** A sink that keeps what it is given; `failing` throws on that many of its first writes. */
function sink(failing = 0): RowSink & { rows: RowResult[]; failed: number } {
  const kept = {
    rows: [] as RowResult[],
    failed: 0,
    write(rows: readonly RowResult[]) {
      if (kept.failed < failing) {
        kept.failed++;
        throw new Error('ENOSPC: no space left on device, write');
      }
      kept.rows.push(...rows);
    },
    close() {},
  };
  return kept;
}

/** Imports `orders` as the command does: each read into the ledger, then handed to the upload. */
async function imported(orders: unknown[], sinks: RowSink[]): Promise<Ledger> {
  const ledger = new Ledger(sinks);
  async function* records(): AsyncGenerator<unknown> {
    for (const order of orders) {
      if (ledger.writeFailure !== undefined) return;
      ledger.add(order);
      yield order;
    }
  }
  await upload(client, records(), ledger, OPTIONS, () => {});
  ledger.close();
  return ledger;
}

const idOf = (reference: string): string | undefined => sandbox.orders().find((order) => order.businessReference === reference)?._id;

describe('an import whose results cannot be written, or whose tracking numbers cannot be read', () => {
  it('a results file whose write fails mid-run: the rows created stay created, the file gets no gap, reading stops', async () => {
    // The first chunk: a row refused (written at once, and that write fails) and a row created (its tracking number read after).
    const orders = [{ ...numberedOrder(1), cod: 45_000 }, numberedOrder(2), numberedOrder(3), numberedOrder(4)];
    const results = sink(1);
    const json = sink();
    const ledger = await imported(orders, [results, json]);

    const written = (reference: string) => json.rows.find((row) => row.businessReference === reference);
    expect(written('ROW-2')).toMatchObject({ row: 2, status: 'created', id: idOf('ROW-2') });
    expect(written('ROW-1')).toMatchObject({ row: 1, status: 'refused' });
    expect(json.rows.map((row) => row.row)).toEqual(Array.from({ length: ledger.read }, (_, index) => index + 1));
    expect(ledger.writeFailure).toBeInstanceOf(Error);
    expect(results.rows).toEqual([]); // nothing after the failed write: the rows before it are all the file holds
    // Every row whose order exists is written created, with its order's id.
    for (const row of json.rows) {
      const id = idOf(row.businessReference as string);
      if (id !== undefined) expect(row).toMatchObject({ status: 'created', id });
      else expect(row.status).not.toBe('created');
    }
  });

  it('a tracking-number read that throws: the rows created stay created, saying why their number is missing', async () => {
    vi.spyOn(client.deliveries, 'resolveTrackingNumbers').mockRejectedValue(new Error('the search is gone'));
    const json = sink();
    const ledger = await imported([numberedOrder(1), numberedOrder(2), numberedOrder(3)], [json]);

    expect(ledger.counts).toMatchObject({ created: 3, 'not sent': 0, refused: 0 });
    expect(sandbox.orders().map((order) => order.businessReference)).toEqual(['ROW-1', 'ROW-2', 'ROW-3']);
    expect(json.rows.map((row) => [row.businessReference, row.status, row.message])).toEqual(
      ['ROW-1', 'ROW-2', 'ROW-3'].map((reference) => [reference, 'created', 'tracking number not read: the search is gone']),
    );
  });
});

describe('an import whose own settling of a chunk fails', () => {
  it('writes the rows it left open unknown, never not sent, and ends saying why', async () => {
    const json = sink();
    const ledger = new Ledger([json]);
    // A fault of the settling itself, before it noted the chunk's first created order.
    vi.spyOn(ledger, 'expect').mockImplementationOnce(() => {
      throw new Error('the settling failed');
    });
    const orders = [numberedOrder(1), numberedOrder(2), numberedOrder(3)];
    async function* records(): AsyncGenerator<unknown> {
      for (const order of orders) {
        ledger.add(order);
        yield order;
      }
    }
    const stopped = await upload(client, records(), ledger, OPTIONS, () => {});
    ledger.close();

    expect(stopped).toEqual(new Error('the settling failed'));
    const [first, second] = json.rows;
    // The chunk of rows 1 and 2 was created at the service: neither row may say it was not sent.
    expect(sandbox.orders().map((order) => order.businessReference)).toEqual(['ROW-1', 'ROW-2', 'ROW-3']);
    expect([first?.status, second?.status]).toEqual(['unknown', 'unknown']);
    expect(json.rows.every((row) => row.status !== 'not sent')).toBe(true);
  });
});

describe('the ledger, settling what is left', () => {
  it('keeps the outcome noted for a row while it was looked up, and gives the others the outcome of the end', () => {
    const written = sink();
    const ledger = new Ledger([written]);
    for (const reference of ['A', 'B', 'C', 'D']) ledger.add({ businessReference: reference });
    ledger.expect(0, { status: 'created', id: 'order-a', message: 'tracking number not read' });
    ledger.expect(2, { status: 'unknown', message: 'may exist' }, { unreachable: true });
    ledger.settle(3, { status: 'refused', message: 'cod' });

    expect(ledger.settleRest({ status: 'not sent' }, { keyRefused: true })).toBe(3);
    ledger.close();
    expect(written.rows.map((row) => [row.businessReference, row.status, row.id])).toEqual([
      ['A', 'created', 'order-a'],
      ['B', 'not sent', undefined],
      ['C', 'unknown', undefined],
      ['D', 'refused', undefined],
    ]);
    expect(ledger.counts).toEqual({ created: 1, existed: 0, refused: 1, 'not sent': 1, unknown: 1 });
    expect([ledger.keyRefused, ledger.unreachable]).toEqual([true, true]);
  });
});
