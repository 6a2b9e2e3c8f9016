import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csv, HEADER, type HoldingProxy, holdingProxy, type Ran, type Running, resultRows, row, run, start, useServedSandbox } from './cli.js';

// `delivery-sdk orders import`, the built command against a sandbox over HTTP, with files written
// here. One sandbox for the file: each test uses references of its own and counts its own orders.
const RESULTS_HEADER = 'row,businessReference,uniqueBusinessReference,status,id,trackingNumber,errorClass,errorCode,message';

const cli = useServedSandbox();
const { ordersWith } = cli;
const jsonLines = (ran: Ran): any[] =>
  ran.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('delivery-sdk orders import', { timeout: 60_000 }, () => {
  it('creates each row once from a spreadsheet export (BOM, CRLF, quoted commas and line breaks, Arabic), and a rerun creates nothing twice', async () => {
    const header = `${HEADER},notes`;
    const text = [
      header,
      `10,A-1,SHOP-A-1,كريم,نبيل,01112345678,الجيزة,district-eg-giza-mohandessin,"5 Gameat El Dowal Street, 2nd floor",1200,"Call first, ""gate 2"""`,
      `${row('A-2', { cod: '45000' })},`,
      `${row('A-3')},"Leave it with the doorman
second line"`,
    ].join('\r\n');
    const file = cli.files.file('a.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${text}\r\n`)]));
    const results = `${cli.files.dir}/a-results.csv`;

    const first = await run(['orders', 'import', file, '--results', results, '--quiet'], cli.served.env);
    expect(first.code).toBe(1); // a row refused, the rest created
    expect(cli.files.read('a-results.csv').split('\n')[0]).toBe(RESULTS_HEADER);
    const rows = resultRows(cli.files.read('a-results.csv'));
    expect(rows.map((r) => [r['row'], r['businessReference'], r['status']])).toEqual([
      ['1', 'A-1', 'created'],
      ['2', 'A-2', 'refused'],
      ['3', 'A-3', 'created'],
    ]);
    expect(rows[1]).toMatchObject({ errorClass: 'CodLimitExceededError', errorCode: '3007' });
    expect(rows[1]?.['message']).toContain('cod');
    const created = ordersWith('A-');
    expect(created).toHaveLength(2);
    for (const order of created)
      expect(rows.find((r) => r['businessReference'] === order.businessReference)).toMatchObject({ trackingNumber: order.trackingNumber, id: order._id });
    const arabic = created.find((order) => order.businessReference === 'A-1')!;
    expect(arabic.request['receiver']).toMatchObject({ firstName: 'كريم', lastName: 'نبيل' });
    expect(arabic.request['notes']).toBe('Call first, "gate 2"');
    expect(created.find((order) => order.businessReference === 'A-3')!.request['notes']).toBe('Leave it with the doorman\nsecond line');
    expect(first.stdout).toContain('2 created, 0 existed, 1 refused');
    expect(first.stdout).toMatch(/row 2 \(A-2\): refused: CodLimitExceededError 3007: .*cod/);

    const again = await run(['orders', 'import', file, '--results', results, '--json'], cli.served.env);
    expect(again.code).toBe(1);
    // The progress counts the rows that existed apart from those created, as the summary does.
    expect(again.stderr).toMatch(/^import: 100% · 3 of 3 rows read · 0 created · 2 existed · 1 refused · 0 not sent · 0 unknown · /m);
    expect(ordersWith('A-')).toHaveLength(2);
    const lines = jsonLines(again);
    expect(lines.slice(0, 3).map((line) => [line.row, line.status, line.trackingNumber])).toEqual([
      [1, 'existed', created.find((order) => order.businessReference === 'A-1')!.trackingNumber],
      [2, 'refused', undefined],
      [3, 'existed', created.find((order) => order.businessReference === 'A-3')!.trackingNumber],
    ]);
    expect(lines[3].summary).toMatchObject({ rows: 3, created: 0, existed: 2, refused: 1, notSent: 0, unknown: 0, exitCode: 1 });
    expect(resultRows(cli.files.read('a-results.csv')).map((r) => r['status'])).toEqual(['existed', 'refused', 'existed']);
  });

  it('reads JSON Lines, one order a line, and exits 0 when every row is created', async () => {
    const order = (reference: string) => ({
      type: 10,
      businessReference: reference,
      receiver: { firstName: 'Sara', lastName: 'Fathy', phone: '01212345678' },
      dropOffAddress: { city: 'Cairo', districtId: 'district-eg-cairo-zamalek', firstLine: '7 Brazil Street, Zamalek' },
      cod: 100,
    });
    const file = cli.files.file('b.jsonl', `${JSON.stringify(order('B-1'))}\n\n${JSON.stringify(order('B-2'))}\n`);
    const ran = await run(['orders', 'import', file, '--results', `${cli.files.dir}/b-results.csv`], cli.served.env);
    expect(ran.code).toBe(0);
    expect(resultRows(cli.files.read('b-results.csv')).map((r) => [r['row'], r['status']])).toEqual([
      ['1', 'created'],
      ['2', 'created'],
    ]);
    expect(ordersWith('B-')).toHaveLength(2);
    // Not a terminal: a progress line per 10% at most, on stderr.
    expect(ran.stderr).toMatch(/^import: 100% · 2 of 2 rows read · 2 created · 0 existed · 0 refused · 0 not sent · 0 unknown · /m);
    expect(ran.stderr.split('\n').filter((line) => line.startsWith('import: ')).length).toBeLessThanOrEqual(10);
  });

  it('--dry-run checks every row offline, naming row, field and errorCode, sends nothing, and exits 1 when any would be refused', async () => {
    const file = cli.files.file(
      'c.csv',
      csv(row('C-1'), row('C-2', { cod: '45000' }), `10,C-3,,Mona,Adel,0101,Giza,district-eg-giza-dokki,"12 Tahrir Street",abc`),
    );
    const ran = await run(['orders', 'import', file, '--dry-run', '--results', `${cli.files.dir}/c-results.csv`, '--quiet']); // no key, no base URL
    expect(ran.code).toBe(1);
    expect(ordersWith('C-')).toEqual([]);
    expect(ran.stdout).toContain('1 valid, 2 would be refused');
    expect(ran.stdout).toMatch(/row 2 \(C-2\): refused: CodLimitExceededError 3007: cod/);
    const third = ran.stdout.split('\n').find((line) => line.includes('row 3 (C-3)')) ?? '';
    expect(third).toMatch(/refused: ValidationError: /);
    expect(third).toContain("cod: expected a finite number, received 'abc'");
    expect(third).toContain('receiver.phone: must be a phone number');
    expect(resultRows(cli.files.read('c-results.csv')).map((r) => r['status'])).toEqual(['not sent', 'refused', 'refused']);
  });

  it.each([
    [
      'a column that is no order field',
      ['d.csv', 'type,recever.phone\n10,01012345678\n'],
      {},
      /'recever\.phone' is not the path of an order field \(receiver\.phone\?\)/,
    ],
    ['a row of fewer fields than the header', ['d.csv', `${HEADER}\n10,D-1\n`], {}, /record 1 has 2 fields where the header has 10/],
    ['a quote never closed', ['d.csv', `${HEADER}\n10,"D-1\n`], {}, /record 1: Quoted field unterminated/],
    ['a file that is not there', ['', ''], {}, /cannot read .*missing\.csv: ENOENT/],
    ['no key', ['d.csv', csv(row('D-1'))], { DELIVERY_API_KEY: '' }, /no API key: set DELIVERY_API_KEY or pass --api-key-file/],
  ])('exits 2, nothing sent, for %s', async (_, [name, content], env, message) => {
    const file = name === '' ? `${cli.files.dir}/missing.csv` : cli.files.file(name as string, content as string);
    const ran = await run(['orders', 'import', file, '--results', `${cli.files.dir}/d-results.csv`], { ...cli.served.env, ...env });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(message);
    expect(ordersWith('D-')).toEqual([]);
    expect(ran.stdout).toBe('');
  });

  it('makes a missing folder for --results, and refuses one it cannot make before anything is sent', async () => {
    const made = await run(
      ['orders', 'import', cli.files.file('m.csv', csv(row('M-1'))), '--results', `${cli.files.dir}/nightly/2026-12-01/results.csv`, '--quiet'],
      cli.served.env,
    );
    expect(made.code).toBe(0);
    expect(made.stdout).toContain(': 1 of 1 row read: 1 created, 0 existed');
    expect(resultRows(cli.files.read('nightly/2026-12-01/results.csv')).map((r) => r['status'])).toEqual(['created']);
    const inTheWay = cli.files.file('a-file', 'not a folder');
    const refused = await run(['orders', 'import', cli.files.file('m2.csv', csv(row('M-2'))), '--results', `${inTheWay}/results.csv`], cli.served.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--results: cannot make the folder ${inTheWay}: a file is in the way`);
    expect(ordersWith('M-2')).toEqual([]);
  });

  it('refuses a row repeating the uniqueBusinessReference of a row in another chunk, never reporting it as that order', async () => {
    const file = cli.files.file('n.csv', csv(row('N-1', { unique: 'SHOP-N' }), row('N-2'), row('N-3'), row('N-4', { unique: 'SHOP-N' })));
    for (const run_ of [1, 2]) {
      const ran = await run(['orders', 'import', file, '--results', `${cli.files.dir}/n-results.csv`, '--chunk-size', '2', '--quiet'], cli.served.env);
      expect(ran.code, `run ${run_}`).toBe(1);
      const rows = resultRows(cli.files.read('n-results.csv'));
      expect(rows.map((r) => r['status'])).toEqual(run_ === 1 ? ['created', 'created', 'created', 'refused'] : ['existed', 'existed', 'existed', 'refused']);
      expect(rows[3]).toMatchObject({ trackingNumber: '', errorClass: 'ValidationError' });
      expect(rows[3]?.['message']).toBe(
        "uniqueBusinessReference: the same as row 1's uniqueBusinessReference ('SHOP-N'): each order of one call needs its own",
      );
    }
    expect(ordersWith('N-').map((order) => order.businessReference)).toEqual(['N-1', 'N-2', 'N-3']);
  });

  it('reads back the id and tracking number of a row whatever its reference holds: a comma, or none at all', async () => {
    const rowOf = (reference: string, phone: string) =>
      `10,"${reference.replaceAll('"', '""')}",,Mona,Adel,${phone},Giza,district-eg-giza-dokki,"12 Tahrir Street, 3rd floor",250`;
    const file = cli.files.file(
      'o.csv',
      csv(rowOf('O-1,gift', '01023456701'), rowOf('O-2', '01023456702'), rowOf('', '01023456703'), rowOf('O-4,"a", b', '01023456704')),
    );
    const ran = await run(['orders', 'import', file, '--results', `${cli.files.dir}/o-results.csv`, '--quiet'], cli.served.env);
    expect(ran.code, ran.stderr).toBe(0);
    const created = cli.served.sandbox
      .orders()
      .filter((order) =>
        ['01023456701', '01023456702', '01023456703', '01023456704'].includes(String((order.request['receiver'] as { phone?: string }).phone)),
      );
    expect(created).toHaveLength(4);
    const rows = resultRows(cli.files.read('o-results.csv'));
    expect(rows.map((r) => [r['businessReference'], r['status'], r['id'], r['trackingNumber'], r['message']])).toEqual(
      created.map((order) => [order.businessReference ?? '', 'created', order._id, order.trackingNumber, '']),
    );
  });

  it('names the right row when a row repeating a unique reference follows one left out for its place name', async () => {
    const header =
      'type,businessReference,uniqueBusinessReference,receiver.firstName,receiver.lastName,receiver.phone,dropOffAddress.city,dropOffAddress.districtName,dropOffAddress.firstLine';
    const named = (reference: string, unique: string, district: string) =>
      `10,${reference},${unique},Mona,Adel,01012345678,Cairo,${district},"7 Brazil Street, Zamalek"`;
    const file = cli.files.file(
      'shifted.csv',
      `${[header, named('SH-1', 'U-SH-1', 'Zamalik'), named('SH-2', 'U-SH', 'Zamalek'), named('SH-3', 'U-SH', 'Zamalek')].join('\n')}\n`,
    );
    const ran = await run(['orders', 'import', file, '--results', `${cli.files.dir}/shifted-results.csv`, '--quiet'], cli.served.env);
    expect(ran.code).toBe(1);
    const rows = resultRows(cli.files.read('shifted-results.csv'));
    expect(rows.map((r) => r['status'])).toEqual(['refused', 'created', 'refused']);
    expect(rows[2]?.['message']).toBe("uniqueBusinessReference: the same as row 2's uniqueBusinessReference ('U-SH'): each order of one call needs its own");
  });

  it('resolves city and district by name, once per place, and refuses a near miss with the likely name', async () => {
    const header =
      'type,businessReference,receiver.firstName,receiver.lastName,receiver.phone,dropOffAddress.city,dropOffAddress.districtName,dropOffAddress.firstLine,cod';
    const named = (reference: string, city: string, district: string) =>
      `10,${reference},Mona,Adel,01012345678,${city},${district},"7 Brazil Street, Zamalek",250`;
    const file = cli.files.file(
      'names.csv',
      `${[
        header,
        named('PN-1', 'Cairo', 'Zamalek'),
        named('PN-2', 'القاهرة', 'الزمالك'),
        named('PN-3', 'giza', 'dokki'),
        named('PN-4', 'Cairo', 'Zamalik'),
        named('PN-5', 'Alexandra', 'Smouha'),
        ...Array.from({ length: 20 }, (_, i) => named(`PN-${i + 6}`, 'Cairo', 'Zamalek')),
      ].join('\n')}\n`,
    );
    const proxy = await holdingProxy(cli.served.server.baseUrl);
    proxy.release();
    try {
      const ran = await run(['orders', 'import', file, '--results', `${cli.files.dir}/names-results.csv`, '--quiet'], {
        ...cli.served.env,
        DELIVERY_BASE_URL: proxy.baseUrl,
      });
      expect(ran.code).toBe(1);
      const rows = resultRows(cli.files.read('names-results.csv'));
      expect(rows.slice(0, 5).map((r) => [r['status'], r['errorClass'], r['errorCode'], r['message']])).toEqual([
        ['created', '', '', ''],
        ['created', '', '', ''],
        ['created', '', '', ''],
        ['refused', 'DistrictNotFoundError', '3003', "dropOffAddress.districtName: no district matches 'Zamalik' in Cairo (القاهرة): did you mean Zamalek?"],
        ['refused', 'CityNotFoundError', '3001', "dropOffAddress.city: no city matches 'Alexandra' in Egypt: did you mean Alexandria?"],
      ]);
      expect(rows.slice(5).every((r) => r['status'] === 'created')).toBe(true);
      const sent = (reference: string) => ordersWith(reference).find((order) => order.businessReference === reference)?.request['dropOffAddress'];
      expect(sent('PN-1')).toMatchObject({ city: 'Cairo', districtId: 'district-eg-cairo-zamalek', firstLine: '7 Brazil Street, Zamalek' });
      expect(sent('PN-2')).toMatchObject({ city: 'Cairo', districtId: 'district-eg-cairo-zamalek' });
      expect(sent('PN-3')).toMatchObject({ city: 'Giza', districtId: 'district-eg-giza-dokki' });
      expect(sent('PN-1')).not.toHaveProperty('districtName');
      // Each list read once for the whole import, however many rows name the place.
      const lookups = proxy.requests.filter((request) => request.method === 'GET').map((request) => request.url.replace(/\?.*/, ''));
      expect(lookups.filter((url) => url === '/v2/cities')).toHaveLength(1);
      expect(lookups.filter((url) => url === '/v2/cities/city-eg-cairo/districts')).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('takes the district by id, or by name in the service’s second format (cityId, districtName, city): both columns work', async () => {
    const header =
      'type,businessReference,receiver.firstName,receiver.lastName,receiver.phone,dropOffAddress.cityId,dropOffAddress.city,dropOffAddress.districtName,dropOffAddress.districtId,dropOffAddress.firstLine';
    const file = cli.files.file(
      'second-format.csv',
      `${header}\n10,SF-1,Mona,Adel,01012345678,city-eg-giza,Giza,Mohandessin,,"5 Gameat El Dowal Street"\n10,SF-2,Mona,Adel,01012345678,,Giza,,district-eg-giza-dokki,"12 Tahrir Street"\n`,
    );
    const ran = await run(['orders', 'import', file, '--quiet'], cli.served.env);
    expect(ran.code).toBe(0);
    expect(ordersWith('SF-1')[0]?.request['dropOffAddress']).toMatchObject({ city: 'Giza', districtId: 'district-eg-giza-mohandessin' });
    expect(ordersWith('SF-2')[0]?.request['dropOffAddress']).toMatchObject({ city: 'Giza', districtId: 'district-eg-giza-dokki' });
  });

  it('a dry run, offline, checks the rest of a row that names its places, and says the names are checked when it is sent', async () => {
    const header =
      'type,businessReference,receiver.firstName,receiver.lastName,receiver.phone,dropOffAddress.city,dropOffAddress.districtName,dropOffAddress.firstLine';
    const ran = await run([
      'orders',
      'import',
      cli.files.file('dry-names.csv', `${header}\n10,DN-1,Mona,Adel,01012345678,Cairo,Zamalek,"7 Brazil Street"\n`),
      '--dry-run',
      '--json',
    ]);
    expect(ran.code).toBe(0);
    expect(jsonLines(ran)[0]).toMatchObject({
      status: 'not sent',
      message: 'valid: the dry run sent nothing; its place names are checked against the lookup lists when it is sent',
    });
  });

  it('exits 3 when the key is refused, every row not sent, and no output carries the key', async () => {
    const file = cli.files.file('e.csv', csv(row('E-1'), row('E-2')));
    const ran = await run(['orders', 'import', file, '--results', `${cli.files.dir}/e-results.csv`, '--json'], {
      ...cli.served.env,
      DELIVERY_API_KEY: 'wrong-key-4f7c9a',
    });
    expect(ran.code).toBe(3);
    expect(resultRows(cli.files.read('e-results.csv')).map((r) => [r['status'], r['errorClass']])).toEqual([
      ['not sent', 'AuthenticationError'],
      ['not sent', 'AuthenticationError'],
    ]);
    expect(`${ran.stdout}${ran.stderr}${cli.files.read('e-results.csv')}`).not.toContain('wrong-key-4f7c9a');
    expect(ordersWith('E-')).toEqual([]);
  });

  it('exits 3 when the subscription has lapsed (403, errorCode 8000002)', async () => {
    cli.served.sandbox.setSubscriptionActive(false);
    try {
      const ran = await run(['orders', 'import', cli.files.file('f.csv', csv(row('F-1'))), '--quiet'], cli.served.env);
      expect(ran.code).toBe(3);
      expect(ran.stdout).toMatch(/SubscriptionRequiredError 8000002/);
    } finally {
      cli.served.sandbox.setSubscriptionActive(true);
    }
  });

  it('exits 4 when the service cannot be reached: the rows are not sent', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const ran = await run(['orders', 'import', cli.files.file('g.csv', csv(row('G-1'))), '--results', `${cli.files.dir}/g-results.csv`, '--quiet'], {
      ...cli.served.env,
      DELIVERY_BASE_URL: `http://127.0.0.1:${port}/v2`,
    });
    expect(ran.code).toBe(4);
    expect(resultRows(cli.files.read('g-results.csv'))[0]).toMatchObject({ status: 'not sent', errorClass: 'ConnectionError' });
  });

  it('exits 4 when the service keeps answering 429: the rows are not sent, nothing in them to fix', async () => {
    cli.served.sandbox.injectFaults({ rate: 1, kinds: ['rate-limit'] });
    let ran: Ran;
    try {
      ran = await run(['orders', 'import', cli.files.file('r.csv', csv(row('R-1'))), '--results', `${cli.files.dir}/r-results.csv`, '--quiet'], cli.served.env);
    } finally {
      cli.served.sandbox.clearFaults();
    }
    expect(ran.code).toBe(4);
    expect(resultRows(cli.files.read('r-results.csv'))[0]).toMatchObject({ status: 'not sent', errorClass: 'RateLimitError' });
    expect(ordersWith('R-')).toEqual([]);
  });

  it('exits 4 when the answers are lost: the orders that may exist are "unknown"; the rerun finds them, creating none twice', async () => {
    const file = cli.files.file('h.csv', csv(row('H-1'), row('H-2')));
    cli.served.sandbox.injectFaults({ rate: 1, kinds: ['drop-after'] });
    let lost: Ran;
    try {
      lost = await run(['orders', 'import', file, '--results', `${cli.files.dir}/h-results.csv`, '--quiet'], cli.served.env);
    } finally {
      cli.served.sandbox.clearFaults();
    }
    expect(lost.code).toBe(4);
    expect(resultRows(cli.files.read('h-results.csv')).map((r) => r['status'])).toEqual(['unknown', 'unknown']);
    expect(lost.stdout).toContain('2 rows may exist: look them up');
    expect(ordersWith('H-')).toHaveLength(2); // the service did create them

    const rerun = await run(['orders', 'import', file, '--results', `${cli.files.dir}/h-results.csv`, '--quiet'], cli.served.env);
    expect(rerun.code).toBe(0);
    expect(ordersWith('H-')).toHaveLength(2);
    expect(resultRows(cli.files.read('h-results.csv')).map((r) => [r['status'], r['trackingNumber']])).toEqual(
      ordersWith('H-').map((order) => ['existed', order.trackingNumber]),
    );
  });
});

/** Resolves once two uploads are held; fails with the command's output should it end first. */
const inFlight = (proxy: { held(count: number): Promise<void> }, importing: Running): Promise<void> =>
  Promise.race([
    proxy.held(2),
    importing.done.then((ran) => Promise.reject(new Error(`the import ended (${ran.code}) before two uploads were in flight:\n${ran.stdout}${ran.stderr}`))),
  ]);

describe('delivery-sdk orders import, its results file failing', { timeout: 60_000 }, () => {
  it('a results file that stops taking writes stops the reading; every row is told on stdout, a created one never "not sent"', async () => {
    // A pipe as the results file: its reader takes the header, then goes, so every later write fails (EPIPE).
    const results = join(cli.files.dir, 'w-results.fifo');
    execFileSync('mkfifo', [results]);
    const file = cli.files.file('w.csv', csv(row('W-1', { cod: '45000' }), ...Array.from({ length: 19 }, (_, i) => row(`W-${i + 2}`))));
    const proxy = await holdingProxy(cli.served.server.baseUrl);
    try {
      const importing = start(['orders', 'import', file, '--results', results, '--json', '--chunk-size', '2', '--concurrency', '1', '--quiet'], {
        ...cli.served.env,
        DELIVERY_BASE_URL: proxy.baseUrl,
      });
      // A process of its own reads the header and exits, closing the pipe (a read of this process's would linger in its thread pool).
      const reader = spawn('head', ['-n', '1', results]);
      let header = '';
      reader.stdout.on('data', (chunk: Buffer) => (header += chunk.toString('utf8')));
      await once(reader, 'close');
      expect(header).toBe(`${RESULTS_HEADER}\n`);
      await proxy.held(1); // no row is written before its upload is answered
      proxy.release();
      const ran = await importing.done;
      expect(ran.code).toBe(1);
      const lines = jsonLines(ran);
      const summary = lines.pop().summary;
      expect(summary.stopped.message).toBe(`--results: ${results} could not be written from row 1 on: EPIPE: broken pipe, write`);
      // The first chunk's refused row was the failed write; its created row was being read back then.
      expect(lines[0]).toMatchObject({ row: 1, status: 'refused', errorCode: 3007 });
      const created = ordersWith('W-');
      expect(lines.map((line) => line.row)).toEqual(Array.from({ length: summary.read }, (_, i) => i + 1));
      expect(summary.read).toBeLessThan(20); // reading stopped
      for (const line of lines.slice(1)) {
        const order = created.find((candidate) => candidate.businessReference === line.businessReference);
        expect(order, line.businessReference).toBeDefined();
        expect(line).toMatchObject({ status: 'created', id: order?._id, trackingNumber: order?.trackingNumber });
      }
      expect(created).toHaveLength(lines.length - 1);
    } finally {
      await proxy.close();
    }
  });
});

describe('delivery-sdk orders import, its results file failing, without --json', { timeout: 60_000 }, () => {
  it("writes the rows from the failed write on to stderr, as the file's lines: every created order is told by its row", async () => {
    const results = join(cli.files.dir, 'v-results.fifo');
    execFileSync('mkfifo', [results]);
    const file = cli.files.file('v.csv', csv(row('V-1', { cod: '45000' }), ...Array.from({ length: 19 }, (_, i) => row(`V-${i + 2}`))));
    const proxy = await holdingProxy(cli.served.server.baseUrl);
    try {
      const importing = start(['orders', 'import', file, '--results', results, '--chunk-size', '2', '--concurrency', '1', '--quiet'], {
        ...cli.served.env,
        DELIVERY_BASE_URL: proxy.baseUrl,
      });
      const reader = spawn('head', ['-n', '1', results]);
      await once(reader, 'close');
      await proxy.held(1);
      proxy.release();
      const ran = await importing.done;
      expect(ran.code).toBe(1);
      const lines = ran.stderr.split('\n');
      const rows = resultRows(
        lines
          .slice(lines.indexOf(RESULTS_HEADER))
          .filter((line) => line === RESULTS_HEADER || /^\d+,/.test(line))
          .join('\n'),
      );
      expect(rows.map((r) => r['row'])).toEqual(rows.map((_, i) => String(i + 1)));
      const created = ordersWith('V-');
      for (const order of created)
        expect(rows.find((r) => r['businessReference'] === order.businessReference)).toMatchObject({ status: 'created', id: order._id });
      expect(ran.stdout).toContain(`Every row's outcome: ${results} and stderr`);
    } finally {
      await proxy.close();
    }
  });
});

describe('delivery-sdk orders import --json, its reader gone', { timeout: 60_000 }, () => {
  it('a stdout whose reader went away (`| head -1`) stops the reading without a crash; the results file tells every row read', async () => {
    const file = cli.files.file('p.csv', csv(...Array.from({ length: 40 }, (_, i) => row(`P-${i + 1}`))));
    const proxy = await holdingProxy(cli.served.server.baseUrl);
    try {
      const importing = start(
        ['orders', 'import', file, '--results', join(cli.files.dir, 'p-results.csv'), '--json', '--chunk-size', '2', '--concurrency', '1', '--quiet'],
        { ...cli.served.env, DELIVERY_BASE_URL: proxy.baseUrl },
      );
      // The reader goes before the first outcome is written: every write to stdout fails (EPIPE).
      await proxy.held(1);
      importing.child.stdout.destroy();
      proxy.release();
      const ran = await importing.done;
      expect(ran.stderr).not.toMatch(/EPIPE|Unhandled|at \w+ \(node:/);
      expect(ran.code).toBe(1);
      const rows = resultRows(cli.files.read('p-results.csv'));
      const created = ordersWith('P-');
      expect(rows.length).toBeLessThan(40); // reading stopped
      expect(rows.map((r) => r['row'])).toEqual(rows.map((_, i) => String(i + 1)));
      expect(created).toHaveLength(rows.length);
      for (const r of rows)
        expect(r).toMatchObject({ status: 'created', id: created.find((order) => order.businessReference === r['businessReference'])?._id });
    } finally {
      await proxy.close();
    }
  });
});

describe('delivery-sdk orders import, interrupted', { timeout: 60_000 }, () => {
  /**
   * An import of ten rows (`<name>-1` ...) through a proxy that holds its uploads, two requests of
   * two rows at a time, once rows 1 to 4 are in flight; its results in `<name>-results.csv`.
   */
  async function heldImport(name: string): Promise<{ proxy: HoldingProxy; importing: Running }> {
    const proxy = await holdingProxy(cli.served.server.baseUrl);
    const file = cli.files.file(`${name}.csv`, csv(...Array.from({ length: 10 }, (_, i) => row(`${name.toUpperCase()}-${i + 1}`))));
    const importing = start(
      ['orders', 'import', file, '--results', `${cli.files.dir}/${name}-results.csv`, '--chunk-size', '2', '--concurrency', '2', '--quiet'],
      {
        ...cli.served.env,
        DELIVERY_BASE_URL: proxy.baseUrl,
      },
    );
    await inFlight(proxy, importing);
    return { proxy, importing };
  }

  it('Ctrl-C stops reading the file, waits for the requests in flight, writes every outcome, and exits 130', async () => {
    const { proxy, importing } = await heldImport('i');
    try {
      importing.child.kill('SIGINT');
      await importing.waitFor(/Interrupted: reading no more rows/);
      proxy.release();
      const ran = await importing.done;
      expect(ran.code).toBe(130);
      expect(resultRows(cli.files.read('i-results.csv')).map((r) => [r['row'], r['status']])).toEqual([
        ['1', 'created'],
        ['2', 'created'],
        ['3', 'created'],
        ['4', 'created'],
      ]);
      expect(ordersWith('I-')).toHaveLength(4);
      expect(ran.stdout).toContain('Interrupted: 6 rows after row 4 were not read.');
    } finally {
      await proxy.close();
    }
  });

  it('a second Ctrl-C exits at once, the rows in flight written "unknown": the orders they became are not untold', async () => {
    const { proxy, importing } = await heldImport('j');
    try {
      importing.child.kill('SIGINT');
      await importing.waitFor(/Interrupted: reading no more rows/);
      // A person's second Ctrl-C, not the first one delivered twice (within half a second).
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      importing.child.kill('SIGINT');
      const ran = await importing.done;
      expect(ran.stderr).toContain('Stopped at once: 4 rows in flight written to');
      expect(ran.code).toBe(130);
      expect(resultRows(cli.files.read('j-results.csv')).map((r) => r['status'])).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
      proxy.release(); // the requests reach the service after all
      await expect.poll(() => ordersWith('J-').length).toBe(4);
    } finally {
      await proxy.close();
    }
  });

  it('a hang-up (its terminal closed) stops it as SIGTERM does: the requests in flight settle, every outcome is written, exit 143', async () => {
    const { proxy, importing } = await heldImport('u');
    try {
      importing.child.kill('SIGHUP');
      await importing.waitFor(/Stopped \(SIGHUP: its terminal closed\): reading no more rows/);
      proxy.release();
      const ran = await importing.done;
      expect(ran.code).toBe(143);
      expect(resultRows(cli.files.read('u-results.csv')).map((r) => [r['row'], r['status']])).toEqual([
        ['1', 'created'],
        ['2', 'created'],
        ['3', 'created'],
        ['4', 'created'],
      ]);
      expect(ordersWith('U-')).toHaveLength(4);
    } finally {
      await proxy.close();
    }
  });

  it('SIGTERM whose requests in flight never settle: at most 7 s later they are written "unknown", and it exits 143', async () => {
    const { proxy, importing } = await heldImport('k');
    try {
      importing.child.kill('SIGTERM');
      const ran = await importing.done; // the proxy never answers
      expect(ran.code).toBe(143);
      expect(ran.stderr).toContain('Stopped (SIGTERM): reading no more rows');
      expect(resultRows(cli.files.read('k-results.csv')).map((r) => r['status'])).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
    } finally {
      await proxy.close();
    }
  });
});
