import { createSandbox } from 'delivery-sdk/testing';
import { describe, expect, it } from 'vitest';
import { EXIT, main, parseRows } from '../../../examples/ci-bulk-upload.js';
import { collector, tsx } from '../../support/processes.js';
import { useExampleMerchant } from '../../support/sandbox.js';

const CSV = 'examples/data/orders.csv';
const JSON_FILE = 'examples/data/orders.json';

const merchant = useExampleMerchant();

async function upload(file: string, options: Partial<Parameters<typeof main>[0]> = {}) {
  const out = collector();
  const code = await main({ ...merchant.target, out, file, ...options });
  return { code, lines: out.lines().filter((line) => line !== '') };
}

describe('ci-bulk-upload', () => {
  it('uploads every row of the JSON sample, names in English and Arabic resolved to ids, and exits 0', async () => {
    const { code, lines } = await upload(JSON_FILE);
    expect(code).toBe(EXIT.created);
    expect(lines).toEqual([`Uploading 4 orders from ${JSON_FILE}`, '4 created, 0 failed']);
    expect(merchant.sandbox.orders().map((order) => [order.businessReference, order.type, order.cod])).toEqual([
      ['ORDER-3001', 10, 250],
      ['ORDER-3002', 15, 1200],
      ['ORDER-3003', 25, -150],
      ['ORDER-3004', 30, 80],
    ]);
    expect(merchant.sandbox.orders()[1]?.request).toMatchObject({ pickupAddress: { city: 'Cairo', districtId: 'district-eg-cairo-zamalek' } });
  });

  it('creates the good rows of the CSV sample, reports each bad one with its class, code and field, and exits 1', async () => {
    const { code, lines } = await upload(CSV);
    expect(code).toBe(EXIT.failures);
    expect(merchant.sandbox.orders().map((order) => order.businessReference)).toEqual(['ORDER-4001', 'ORDER-4002', 'ORDER-4004']);
    expect(merchant.sandbox.orders()[1]?.request).toMatchObject({
      notes: 'Call before delivery, "gate 2"',
      dropOffAddress: { districtId: 'district-eg-giza-mohandessin' },
    });
    expect(lines[0]).toBe(`Uploading 6 orders from ${CSV}`);
    expect(lines[1]).toMatch(/^✗ row 3 ORDER-4003: DistrictNotFoundError 3003 \(client\) district: no district matches 'Dokky' in Giza .*closest: Dokki/);
    expect(lines[2]).toBe('✗ row 5 ORDER-4005: CodLimitExceededError 3007 (client) cod: must be at most 30000 EGP');
    expect(lines[3]).toMatch(/^✗ row 6 ORDER-4006: CrpRefundCodOnlyError 3005 \(client\) cod: /);
    expect(lines.slice(4)).toEqual(['3 created, 3 failed']);
  });

  it('reports what the service refused, and the rows never sent once it stopped, as server errors', async () => {
    const unset = createSandbox(); // an account without a pickup location: 1073 for every chunk
    try {
      const { code, lines } = await upload(JSON_FILE, { baseUrl: unset.baseUrl, apiKey: unset.apiKey, fetch: unset.fetch, chunkSize: 2 });
      expect(code).toBe(EXIT.failures);
      expect(lines.slice(1)).toEqual([
        ...['ORDER-3001', 'ORDER-3002', 'ORDER-3003', 'ORDER-3004'].map((reference, i) =>
          expect.stringMatching(new RegExp(`^✗ row ${i + 1} ${reference}: BusinessLocationRequiredError 1073 \\(server\\) `)),
        ),
        '0 created, 4 failed',
      ]);
      expect(unset.orders()).toEqual([]);
    } finally {
      await unset.close();
    }
  });

  it('marks the rows of a chunk whose answer was lost as possibly created', async () => {
    // The bulk request reaches the sandbox, which creates the orders; the answer never comes back.
    const lossy: typeof fetch = async (input, init) => {
      const response = await merchant.sandbox.fetch(input, init);
      if (new Request(input, init).url.includes('/deliveries/bulk')) throw new TypeError('fetch failed: socket hang up');
      return response;
    };
    const { code, lines } = await upload(JSON_FILE, { fetch: lossy });
    expect(code).toBe(EXIT.failures);
    expect(lines.filter((line) => line.startsWith('✗'))).toHaveLength(4);
    for (const line of lines.filter((l) => l.startsWith('✗')))
      expect(line).toMatch(/ConnectionError \(network\) .*\[may have been created: look it up before sending it again\]$/);
    expect(merchant.sandbox.orders()).toHaveLength(4);
  });

  it('exits 2 for a file it cannot read, sending nothing', async () => {
    expect(await upload('examples/data/missing.csv')).toEqual({
      code: EXIT.unreadable,
      lines: [expect.stringMatching(/^error: cannot read orders from examples\/data\/missing\.csv: ENOENT/)],
    });
    expect((await upload('package.json')).code).toBe(EXIT.unreadable);
    expect((await upload('README.md')).lines[0]).toMatch(/expected a \.json or \.csv file/);
    expect(merchant.sandbox.orders()).toEqual([]);
  });
});

describe('parseRows', () => {
  it('reads quoted CSV fields (commas, doubled quotes, line breaks), CRLF, a byte-order mark, and skips blank lines', () => {
    const csv = '\uFEFFreference,notes,cod\r\nA-1,"ring twice, ""gate 2""",10\r\n\r\nA-2,"first line\nsecond line",\r\n';
    expect(parseRows(csv, '.csv')).toEqual([
      { reference: 'A-1', notes: 'ring twice, "gate 2"', cod: '10' },
      { reference: 'A-2', notes: 'first line\nsecond line', cod: '' },
    ]);
  });

  it('takes a JSON array of objects and refuses anything else', () => {
    expect(parseRows('[{"reference":"A-1","cod":5}]', '.json')).toEqual([{ reference: 'A-1', cod: 5 }]);
    expect(() => parseRows('{"reference":"A-1"}', '.json')).toThrow(/JSON array of objects/);
  });
});

describe('npx tsx examples/ci-bulk-upload.ts', () => {
  it('exits 1 with the report for the CSV sample, 0 for the JSON one, 2 without a file', async () => {
    const [csv, json, none] = await Promise.all([
      tsx(['examples/ci-bulk-upload.ts', CSV]),
      tsx(['examples/ci-bulk-upload.ts', JSON_FILE]),
      tsx(['examples/ci-bulk-upload.ts']),
    ]);
    expect(csv.code).toBe(1);
    expect(csv.stdout).toContain('✗ row 5 ORDER-4005: CodLimitExceededError 3007 (client) cod: must be at most 30000 EGP');
    expect(csv.stdout).toContain('3 created, 3 failed');
    expect(json.code).toBe(0);
    expect(json.stdout).toContain('4 created, 0 failed');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage: npx tsx examples/ci-bulk-upload.ts');
  });
});
