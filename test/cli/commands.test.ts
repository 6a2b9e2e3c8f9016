import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryClient, DeliveryState } from '../../src/index.js';
import { requireBuilt, run, servedSandbox, workspace } from './cli.js';

// `orders get|track|cancel|wait`, `labels` and `history`: the built command against a sandbox over HTTP.
let served: Awaited<ReturnType<typeof servedSandbox>>;
let files: ReturnType<typeof workspace>;
const tn: Record<'delivered' | 'cancelled' | 'waiting' | 'cashCollection' | 'returning', string> = {
  delivered: '',
  cancelled: '',
  waiting: '',
  cashCollection: '',
  returning: '',
};
const PHONE = '01099887766';

beforeAll(async () => {
  requireBuilt();
  served = await servedSandbox();
  files = workspace();
  const client = new DeliveryClient({ baseUrl: served.sandbox.baseUrl, apiKey: served.sandbox.apiKey, fetch: served.sandbox.fetch });
  const address = { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street, 3rd floor' };
  const receiver = { firstName: 'Mona', lastName: 'Adel', phone: PHONE };
  for (const name of ['delivered', 'cancelled', 'waiting'] as const)
    tn[name] = (await client.deliveries.create({ type: 10, dropOffAddress: address, receiver, cod: 250, businessReference: `CMD-${name}` })).trackingNumber;
  tn.cashCollection = (await client.deliveries.create({ type: 15, pickupAddress: address, receiver, cod: 500, businessReference: 'CMD-cc' })).trackingNumber;
  await served.sandbox.play(tn.delivered, 'success');
  // A Customer Return Pickup on its way back to the business: state 41, out for return.
  tn.returning = (
    await client.deliveries.create({
      type: 25,
      pickupAddress: address,
      receiver: { ...receiver, phone: '01244556677' },
      cod: -100,
      businessReference: 'CMD-crp',
    })
  ).trackingNumber;
  while (served.sandbox.order(tn.returning).state !== DeliveryState.OutForDelivery) {
    const next = served.sandbox.nextStates(tn.returning);
    await served.sandbox.advance(tn.returning, {
      to: next.includes(41) ? 41 : (next.find((state) => ![47, 49, 100, 101, 102, 105].includes(state)) as number),
    });
  }
});
afterAll(async () => {
  await served?.close();
  files?.remove();
});

describe('delivery-sdk orders get, track, cancel, wait', { timeout: 60_000 }, () => {
  it('get prints the order; --json writes it as one document', async () => {
    const human = await run(['orders', 'get', tn.waiting], served.env);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`${tn.waiting}: 10 Pickup requested`);
    expect(human.stdout).toMatch(/businessReference: CMD-waiting/);
    const json = await run(['orders', 'get', tn.waiting, '--json'], served.env);
    expect(JSON.parse(json.stdout)).toMatchObject({ trackingNumber: tn.waiting, businessReference: 'CMD-waiting', state: { code: 10 } });
  });

  it('get of an unknown order exits 1; with --json stdout holds the error as its one document', async () => {
    const ran = await run(['orders', 'get', '79999999', '--json'], served.env);
    expect(ran.code).toBe(1);
    expect(JSON.parse(ran.stdout)).toMatchObject({ error: { errorClass: 'NotFoundError' }, exitCode: 1 });
    expect(ran.stderr).toContain('NotFoundError');
  });

  it('track lists the states, oldest first', async () => {
    const ran = await run(['orders', 'track', tn.delivered], served.env);
    expect(ran.code).toBe(0);
    const states = ran.stdout.split('\n').slice(1, -1);
    expect(states[0]).toMatch(/10 Pickup requested$/);
    expect(states.at(-1)).toMatch(/45 Delivered$/);
  });

  it("prints a state by the order's type where its meaning differs: 41 is out for delivery for a Deliver, out for return for a return", async () => {
    const sent = await run(['orders', 'track', tn.delivered], served.env);
    expect(sent.stdout).toMatch(/ {2}41 Picked up: out for delivery\n/);
    const returning = await run(['orders', 'get', tn.returning], served.env);
    expect(returning.stdout).toContain(`${tn.returning}: 41 Picked up: out for return`);
    const tracked = await run(['orders', 'track', tn.returning], served.env);
    expect(tracked.stdout.split('\n')[0]).toMatch(/: 41 Picked up: out for return/);
    expect(tracked.stdout).not.toContain('out for delivery');
  });

  it('cancel terminates the order; wait --until delivered then exits 1, as it ended otherwise', async () => {
    expect((await run(['orders', 'cancel', tn.cancelled], served.env)).code).toBe(0);
    expect(served.sandbox.order(tn.cancelled).state).toBe(DeliveryState.Terminated);
    const ran = await run(['orders', 'wait', tn.cancelled, '--until', 'delivered'], served.env);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain('ended in 48 Terminated without reaching delivered');
  });

  it('wait exits 0 once the order is delivered, and 4 when --timeout runs out first', async () => {
    const delivered = await run(['orders', 'wait', tn.delivered, '--until', 'delivered', '--json'], served.env);
    expect(delivered.code).toBe(0);
    expect(JSON.parse(delivered.stdout)).toMatchObject({ trackingNumber: tn.delivered, reached: true, state: { code: 45 } });
    const late = await run(['orders', 'wait', tn.waiting, '--until', '45', '--timeout', '1s', '--poll-interval', '100ms'], served.env);
    expect(late.code).toBe(4);
    // Whichever runs out first, the wait's own deadline or the last read's share of it, a TimeoutError.
    expect(late.stderr).toMatch(/TimeoutError: /);
    expect(late.stderr).not.toMatch(/reached/);
  });

  it('exits by cause: 4 when the service fails (5xx) for get, track and history; 1 for a cancel the state does not allow', async () => {
    const failing = served.sandbox.injectFault({ kind: 'unavailable', times: Number.POSITIVE_INFINITY });
    try {
      for (const args of [
        ['orders', 'get', tn.waiting],
        ['orders', 'track', tn.waiting],
        ['history', PHONE],
      ]) {
        const ran = await run([...args, '--json'], served.env);
        expect(ran.code, args.join(' ')).toBe(4);
        expect(JSON.parse(ran.stdout)).toMatchObject({ error: { errorClass: 'ServerError' }, exitCode: 4 });
      }
    } finally {
      failing.remove();
    }
    const delivered = await run(['orders', 'cancel', tn.delivered], served.env);
    expect(delivered.code).toBe(1);
    expect(delivered.stderr).toContain('OrderStateError');
    expect(served.sandbox.order(tn.delivered).state).toBe(DeliveryState.Delivered);
  });

  it('wait refuses a state the catalogue does not have (exit 2) rather than waiting out its timeout', async () => {
    const ran = await run(['orders', 'wait', tn.waiting, '--until', '999', '--timeout', '10m'], served.env);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      "--until: expected delivered, final or a state code of the catalogue (45; the table in docs/webhooks.md), received '999': no such state",
    );
  });

  it('reads the key from the first line of --api-key-file, as docs/cli.md says', async () => {
    const keyFile = files.file('key.txt', `${served.sandbox.apiKey}\n# rotated 2026-11-02, the old key: wrong-key-0000\n`);
    const ran = await run(['orders', 'get', tn.waiting, '--api-key-file', keyFile], { DELIVERY_BASE_URL: served.server.baseUrl });
    expect(ran.code).toBe(0);
    const empty = await run(['orders', 'get', tn.waiting, '--api-key-file', files.file('empty-key.txt', '\nsecond line\n')], {
      DELIVERY_BASE_URL: served.server.baseUrl,
    });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--api-key-file: the first line of');
  });

  it('suggests the command or action meant, and the help of the command that exists', async () => {
    const command = await run(['ordres', 'get', tn.waiting], served.env);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("unknown command 'ordres' (did you mean 'orders'?)");
    expect(command.stderr).toContain("Run 'delivery-sdk --help' for its usage.");
    const action = await run(['orders', 'trak', tn.waiting], served.env);
    expect(action.stderr).toContain("unknown action 'trak' (did you mean 'track'?)");
    expect(action.stderr).toContain("Run 'delivery-sdk orders --help' for its usage.");
  });

  it('refuses a key given as an argument (exit 2), saying where it belongs', async () => {
    const ran = await run(['orders', 'get', tn.waiting, '--api-key', 'secret-in-argv'], served.env);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('set DELIVERY_API_KEY or pass --api-key-file FILE');
    expect(ran.stderr).not.toContain('secret-in-argv');
  });
});

describe('delivery-sdk labels', { timeout: 60_000 }, () => {
  it('writes one PDF per 50 printable orders and names those not printable, exiting 1', async () => {
    const out = join(files.dir, 'labels');
    const ran = await run(['labels', tn.waiting, tn.cashCollection, '79999999', '--out', out, '--size', 'A6'], served.env);
    expect(ran.code).toBe(1);
    expect(readFileSync(join(out, 'labels-001.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    expect(existsSync(join(out, 'labels-002.pdf'))).toBe(false);
    expect(ran.stdout).toContain(`${join(out, 'labels-001.pdf')}: 1 label`);
    expect(ran.stdout).toMatch(new RegExp(`Not printed \\(2\\): .*79999999 \\(no such order\\).*${tn.cashCollection} \\(.*Cash Collection`));
  });

  it('--from-results prints the rows created or existed of an import', async () => {
    const results = files.file(
      'results.csv',
      [
        'row,businessReference,uniqueBusinessReference,status,id,trackingNumber,errorClass,errorCode,message',
        `1,CMD-waiting,,created,,${tn.waiting},,,`,
        `2,CMD-x,,refused,,,CodLimitExceededError,3007,cod: must be at most 30000 EGP`,
        `3,CMD-delivered-before,,existed,,${tn.cancelled},,,`,
      ].join('\n'),
    );
    const ran = await run(['labels', '--from-results', results, '--out', join(files.dir, 'from-results'), '--json'], served.env);
    const printed = JSON.parse(ran.stdout);
    // The terminated order is finished: not printable.
    expect(printed.files.map((file: { trackingNumbers: string[] }) => file.trackingNumbers)).toEqual([[tn.waiting]]);
    expect(printed.notPrintable).toEqual([{ trackingNumber: tn.cancelled, reason: expect.stringContaining('finished') }]);
    expect(ran.code).toBe(1);
  });
});

describe('delivery-sdk labels, its output folder', { timeout: 60_000 }, () => {
  it('makes a missing --out, never writes over the labels of an earlier run, and with --force replaces them all', async () => {
    const out = join(files.dir, 'nightly/labels');
    const first = await run(['labels', tn.waiting, '--out', out], served.env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Every order printed: 1 label in 1 file.');
    // An earlier run's second file, which tonight's single file must not leave beside it.
    writeFileSync(join(out, 'labels-002.pdf'), '%PDF-1.4 an earlier run');
    const before = readFileSync(join(out, 'labels-001.pdf'));

    const again = await run(['labels', tn.waiting, '--out', out], served.env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`--out: ${out} holds the labels of an earlier run (labels-001.pdf, labels-002.pdf): pass --force to replace them`);
    expect(readFileSync(join(out, 'labels-001.pdf'))).toEqual(before);

    const forced = await run(['labels', tn.waiting, '--out', out, '--force'], served.env);
    expect(forced.code).toBe(0);
    expect(readdirSync(out)).toEqual(['labels-001.pdf']);
  });

  it('refuses an --out it cannot make, before anything is sent (exit 2)', async () => {
    const inTheWay = files.file('not-a-folder', 'a file');
    const ran = await run(['labels', tn.waiting, '--out', join(inTheWay, 'labels')], served.env);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`--out: cannot make the folder ${join(inTheWay, 'labels')}: a file is in the way`);
  });

  it('writes what was printed before a failure and names the orders not printed; exit 4 for a failing service', async () => {
    const client = new DeliveryClient({ baseUrl: served.sandbox.baseUrl, apiKey: served.sandbox.apiKey, fetch: served.sandbox.fetch });
    const address = { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street, 3rd floor' };
    const orders = Array.from({ length: 51 }, (_, i) => ({
      type: 10 as const,
      dropOffAddress: address,
      receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01055667788' },
      cod: 100,
      businessReference: `PARTIAL-${i + 1}`,
    }));
    await client.deliveries.createBulk(orders);
    const numbers = served.sandbox
      .orders()
      .filter((order) => order.businessReference?.startsWith('PARTIAL-'))
      .map((order) => order.trackingNumber);
    // The second print (orders 51 on) fails, with every retry.
    const failing = served.sandbox.injectFault({ kind: 'unavailable', path: '/deliveries/mass-awb', nth: 2, times: Number.POSITIVE_INFINITY });
    try {
      const out = join(files.dir, 'partial');
      const ran = await run(['labels', ...numbers, '--out', out, '--json'], served.env);
      expect(ran.code).toBe(4);
      const printed = JSON.parse(ran.stdout);
      expect(printed.files.map((file: { trackingNumbers: string[] }) => file.trackingNumbers)).toEqual([numbers.slice(0, 50)]);
      expect(readFileSync(join(out, 'labels-001.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
      expect(printed.notPrintable).toEqual([{ trackingNumber: numbers[50], reason: expect.stringMatching(/^not printed: .*503/) }]);
    } finally {
      failing.remove();
    }
  });

  it('--from-results names the rows created without a tracking number instead of skipping them', async () => {
    const results = files.file(
      'results-without.csv',
      [
        'row,businessReference,uniqueBusinessReference,status,id,trackingNumber,errorClass,errorCode,message',
        `1,CMD-waiting,,created,,${tn.waiting},,,`,
        `2,"ORDER-7,comma",,created,5b0000000000000000000099,,,,tracking number not read`,
      ].join('\n'),
    );
    const ran = await run(['labels', '--from-results', results, '--out', join(files.dir, 'without')], served.env);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain(`${join(files.dir, 'without', 'labels-001.pdf')}: 1 label`);
    expect(ran.stdout).toMatch(/Not printed \(1\): row 2 \(ORDER-7,comma\) \(created without a tracking number/);
  });
});

describe('delivery-sdk history', { timeout: 60_000 }, () => {
  it("prints the customer's record by phone, in any spelling", async () => {
    const ran = await run(['history', `+2${PHONE}`], served.env);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain(`+2${PHONE}: 4 orders: 1 delivered, 0 returned, 2 on their way; delivery rate 100%.`);
    const json = await run(['history', PHONE, '--json'], served.env);
    expect(JSON.parse(json.stdout)).toMatchObject({ phone: PHONE, total: 4, delivered: 1, rate: 1 });
  });
});
