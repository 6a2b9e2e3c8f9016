import { linkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csv, HEADER, resultRows, row, run, start, useServedSandbox } from './cli.js';

// What `orders import` reads and what its results file writes, when the file is not the tidy
// export it expects: another encoding, a record of megabytes, a pipe, cells a spreadsheet would run,
// a --results that is the input under another name. The built command against a sandbox over HTTP.
const cli = useServedSandbox();
const { ordersWith } = cli;

/** Text in windows-1256, what Excel's plain "CSV" is on an Arabic Windows: ASCII as itself, Arabic letters a byte each. */
function windows1256(text: string): Buffer {
  const decoder = new TextDecoder('windows-1256');
  const byteOf = new Map(Array.from({ length: 128 }, (_, i) => [decoder.decode(Uint8Array.of(i + 128)), i + 128]));
  return Buffer.from(Array.from(text, (char) => (char.charCodeAt(0) < 128 ? char.charCodeAt(0) : (byteOf.get(char) as number))));
}

describe('delivery-sdk orders import, its input', { timeout: 60_000 }, () => {
  it('refuses a file that is not UTF-8, naming its line, and reads it with --encoding windows-1256', async () => {
    const text = csv(row('W-1'), `10,W-2,U-W-2,كريم,نبيل,01112345678,Giza,district-eg-giza-dokki,"12 Tahrir Street, 3rd floor",250`);
    const file = cli.files.file('windows.csv', windows1256(text));
    const refused = await run(['orders', 'import', file, '--quiet'], cli.served.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${file}: line 3 is not UTF-8 text`);
    expect(refused.stderr).toContain('--encoding');
    expect(ordersWith('W-')).toEqual([]);

    const read = await run(['orders', 'import', file, '--encoding', 'windows-1256', '--quiet'], cli.served.env);
    expect(read.code).toBe(0);
    const arabic = ordersWith('W-2')[0];
    expect(arabic?.request['receiver']).toMatchObject({ firstName: 'كريم', lastName: 'نبيل' });
    expect((await run(['orders', 'import', file, '--encoding', 'klingon'], cli.served.env)).stderr).toContain("--encoding: 'klingon' is not an encoding");
  });

  it.each([
    [
      'a CSV record',
      'long.csv',
      () => csv(row('L-1'), `10,L-2,U-L-2,Mona,Adel,01012345678,Giza,district-eg-giza-dokki,"${'x'.repeat(2_000_000)}",250`),
      /long\.csv: record 2 \(from line 3\) is longer than 1 MiB/,
    ],
    [
      'a quote never closed',
      'open-quote.csv',
      () => `${HEADER}\n10,"Q-1${',a'.repeat(1_000_000)}\n`,
      /open-quote\.csv: record 1 \(from line 2\) is longer than 1 MiB/,
    ],
    ['a header cell', 'header.csv', () => `type,${'h'.repeat(1_500_000)}\n10,x\n`, /header\.csv: the header \(line 1\) is longer than 1 MiB/],
    ['a JSON Lines line', 'long.jsonl', () => `{"type":10}\n{"notes":"${'n'.repeat(2_000_000)}"}\n`, /long\.jsonl: line 2 is longer than 1 MiB/],
  ])('refuses %s longer than 1 MiB with a usage error: no stack, nothing of it echoed, nothing sent', async (_, name, content, message) => {
    const ran = await run(['orders', 'import', cli.files.file(name, content()), '--quiet'], cli.served.env);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(message);
    expect(ran.stderr).not.toMatch(/\n\s+at /);
    expect(ran.stderr.length).toBeLessThan(1_000);
    expect(ordersWith('L-')).toEqual([]);
  });

  it('holds no more than a record of a file that is one quoted field of 40 MB (a heap of 48 MB is enough)', async () => {
    const file = cli.files.file('swallowed.csv', `${HEADER}\n10,"S-1\n${'0123456789,'.repeat(4_000_000)}\n`);
    const ran = await run(['orders', 'import', file, '--quiet'], { ...cli.served.env, NODE_OPTIONS: '--max-old-space-size=48' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/record 1 \(from line 2\) is longer than 1 MiB/);
  });

  it('does not echo a long header cell whole', async () => {
    const ran = await run(['orders', 'import', cli.files.file('wide.csv', `type,${'c'.repeat(100_000)}\n10,x\n`), '--quiet'], cli.served.env);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`'${'c'.repeat(40)}…' is not the path of an order field`);
    expect(ran.stderr.length).toBeLessThan(1_000);
  });

  it('skips blank records (no cell, or every cell empty or spaces) and counts the rows after them as the file does', async () => {
    const text = `${HEADER}\r\n${row('B-1')}\r\n\r\n   \r\n, , ,,,,,,,\r\n${row('B-2')}\r\n\r\n10,B-3,U-B-3,Mona,Adel,01012345678,Giza,district-eg-giza-dokki,"12 Tahrir Street, 3rd floor",-5\r\n`;
    const ran = await run(
      ['orders', 'import', cli.files.file('blank.csv', text), '--results', join(cli.files.dir, 'blank-results.csv'), '--quiet'],
      cli.served.env,
    );
    expect(ran.code, ran.stderr).toBe(1);
    expect(ran.stdout).toContain('3 of 3 rows read: 2 created');
    const rows = resultRows(cli.files.read('blank-results.csv'));
    expect(rows.map((r) => [r['row'], r['businessReference'], r['status']])).toEqual([
      ['1', 'B-1', 'created'],
      ['2', 'B-2', 'created'],
      ['3', 'B-3', 'refused'],
    ]);
    expect(ordersWith('B-')).toHaveLength(2);
  });

  it('reads a pipe given as the file, as it reads a file', async () => {
    const importing = start(['orders', 'import', '/dev/stdin', '--format', 'csv', '--results', join(cli.files.dir, 'piped.csv'), '--quiet'], cli.served.env);
    importing.child.stdin.end(csv(row('P-1'), row('P-2')));
    const ran = await importing.done;
    expect(ran.code, ran.stderr).toBe(0);
    expect(resultRows(cli.files.read('piped.csv')).map((r) => r['status'])).toEqual(['created', 'created']);
    expect(ordersWith('P-')).toHaveLength(2);
  });
});

describe('delivery-sdk orders import, its results file', { timeout: 60_000 }, () => {
  it('writes a cell a spreadsheet would run as a formula with a quote before it (OWASP), the order as sent', async () => {
    const formulas = ['=HYPERLINK("https://evil.example","open")', '+1+cmd|calc', '-2+3', '@SUM(A1:A9)', '=1+1\nsecond line'];
    const file = cli.files.file(
      'formulas.jsonl',
      formulas
        .map((reference, i) =>
          JSON.stringify({
            type: 10,
            businessReference: reference,
            uniqueBusinessReference: `F-${i}`,
            receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
            dropOffAddress: { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street, 3rd floor' },
          }),
        )
        .join('\n'),
    );
    const ran = await run(['orders', 'import', file, '--results', join(cli.files.dir, 'formulas-results.csv'), '--quiet'], cli.served.env);
    expect(ran.code).toBe(0);
    const text = cli.files.read('formulas-results.csv');
    expect(text).toContain(`,"'=HYPERLINK(""https://evil.example"",""open"")",`);
    expect(resultRows(text).map((r) => r['businessReference'])).toEqual(formulas.map((reference) => `'${reference}`));
    // What was sent is what the file said: only the results file is escaped.
    expect(cli.served.sandbox.orders().filter((order) => order.businessReference === formulas[0])).toHaveLength(1);
  });

  it('refuses a --results that is the input by another path: a symbolic or a hard link', async () => {
    const input = cli.files.file('input.csv', csv(row('R-1')));
    symlinkSync(input, join(cli.files.dir, 'results-link.csv'));
    linkSync(input, join(cli.files.dir, 'results-hard.csv'));
    for (const results of ['results-link.csv', 'results-hard.csv']) {
      const ran = await run(['orders', 'import', input, '--results', join(cli.files.dir, results)], cli.served.env);
      expect(ran.code, results).toBe(2);
      expect(ran.stderr).toContain('--results names the file to import');
      expect(cli.files.read('input.csv')).toBe(csv(row('R-1')));
    }
    writeFileSync(join(cli.files.dir, 'other.csv'), '');
    expect(ordersWith('R-')).toEqual([]);
  });
});
