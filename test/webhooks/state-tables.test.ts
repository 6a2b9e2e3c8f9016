import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentStateTables, END_MARKER, renderStateTables, replaceStateTables, START_MARKER } from '../../scripts/state-tables.js';
import { ForwardExceptionReason, ReturnExceptionReason, STATES } from '../../src/webhooks/index.js';

const page = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');

/** The first cell of every table row whose first cell is a number, per table (tables split by blank lines). */
function firstColumns(markdown: string): number[][] {
  return markdown
    .split(/\n\s*\n/)
    .map((block) => [...block.matchAll(/^\| (\d+) \|/gm)].map((match) => Number(match[1])))
    .filter((codes) => codes.length > 0);
}

describe('The table of states and exception reasons in docs/webhooks.md', () => {
  it('is exactly what the catalogues render (run `npx tsx scripts/state-tables.ts` after changing them)', () => {
    expect(currentStateTables(page)).toBe(renderStateTables());
  });

  it('sits in the section on states', () => {
    const heading = page.indexOf('## States, flows and exception reasons');
    const section = page.slice(heading, page.indexOf('\n## ', heading + 1) === -1 ? undefined : page.indexOf('\n## ', heading + 1));
    expect(heading).toBeGreaterThan(-1);
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

  it('is rewritten when it drifted, and the rest of the page is left alone', () => {
    const drifted = page.replace('| 45 |', '| 44 |');
    expect(currentStateTables(drifted)).not.toBe(renderStateTables());
    expect(replaceStateTables(drifted)).toBe(page);
  });

  it('refuses a page without the markers', () => {
    expect(() => replaceStateTables('# no markers')).toThrow(/states:start/);
  });
});
