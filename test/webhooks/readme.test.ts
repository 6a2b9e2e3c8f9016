import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentStateTables, END_MARKER, renderStateTables, replaceStateTables, START_MARKER } from '../../scripts/readme-tables.js';
import { ForwardExceptionReason, ReturnExceptionReason, STATES } from '../../src/webhooks/index.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The first cell of every table row whose first cell is a number, per table (tables split by blank lines). */
function firstColumns(markdown: string): number[][] {
  return markdown
    .split(/\n\s*\n/)
    .map((block) => [...block.matchAll(/^\| (\d+) \|/gm)].map((match) => Number(match[1])))
    .filter((codes) => codes.length > 0);
}

describe("README's table of states and exception reasons", () => {
  it('is exactly what the catalogues render (run `npx tsx scripts/readme-tables.ts` after changing them)', () => {
    expect(currentStateTables(readme)).toBe(renderStateTables());
  });

  it('sits in the Webhooks section', () => {
    const section = readme.slice(readme.indexOf('## Webhooks'), readme.indexOf('\n## ', readme.indexOf('## Webhooks') + 1));
    expect(section).toContain(START_MARKER);
    expect(section).toContain(END_MARKER);
  });

  it('has a row for every state and every exception code, in code order', () => {
    const [states, forward, returns] = firstColumns(renderStateTables());
    const sorted = (codes: string[]): number[] => codes.map(Number).sort((a, b) => a - b);
    expect(states).toEqual(sorted(Object.keys(STATES)));
    expect(forward).toEqual(sorted(Object.keys(ForwardExceptionReason)));
    expect(returns).toEqual(sorted(Object.keys(ReturnExceptionReason)));
  });

  it('is rewritten when it drifted, and the rest of the README is left alone', () => {
    const drifted = readme.replace('| 45 |', '| 44 |');
    expect(currentStateTables(drifted)).not.toBe(renderStateTables());
    expect(replaceStateTables(drifted)).toBe(readme);
  });

  it('refuses a README without the markers', () => {
    expect(() => replaceStateTables('# no markers')).toThrow(/states:start/);
  });
});
