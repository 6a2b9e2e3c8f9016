/**
 * Writes the table of states and exception reasons in docs/webhooks.md from the catalogues, so
 * the docs cannot drift from the code: `npx tsx scripts/state-tables.ts` rewrites the block between
 * the markers; test/webhooks/state-tables.test.ts fails when the page differs from what this renders.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DeliveryState, describeState, ForwardExceptionReason, ReturnExceptionReason, STATES, WebhookOrderType } from '../src/catalogue/index.js';

export const START_MARKER = '<!-- states:start -->';
export const END_MARKER = '<!-- states:end -->';

const cell = (text: string): string => text.replace(/\|/g, '\\|');
const row = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;
const byCode = (a: number, b: number): number => a - b;

/** `all` and `all but CASH_COLLECTION` read better than seven type names. */
function typesList(types: readonly string[]): string {
  const missing = Object.values(WebhookOrderType).filter((type) => !types.includes(type));
  if (missing.length === 0) return 'all';
  return missing.length === 1 && missing[0] === WebhookOrderType.CashCollection ? 'all but CASH_COLLECTION' : types.join(', ');
}

/** Where the meaning differs by order type (41, 22, 40), each meaning with the types it applies to. */
function meaningsByType(code: DeliveryState): string {
  const groups = new Map<string, string[]>();
  for (const type of STATES[code].appliesTo) {
    const { meaning, dashboardState } = describeState(code, type);
    const key = dashboardState === STATES[code].dashboardState ? meaning : `${meaning} (dashboard: ${dashboardState})`;
    groups.set(key, [...(groups.get(key) ?? []), type]);
  }
  const [only] = groups.keys();
  if (groups.size === 1 && only === STATES[code].name) return '';
  return [...groups].map(([meaning, types]) => `${types.join(', ')}: ${meaning}`).join('; ');
}

/** The markdown between the markers: the States table, then both exception tables. */
export function renderStateTables(): string {
  const names = new Map<number, string>(Object.entries(DeliveryState).map(([name, code]) => [code, name]));
  const codes = (Object.keys(STATES).map(Number) as DeliveryState[]).sort(byCode);
  const states = [
    row(['state', 'constant', 'name', 'dashboard', 'applies to', 'final', 'meaning by type']),
    row(['---', '---', '---', '---', '---', '---', '---']),
    ...codes.map((code) => {
      const info = STATES[code];
      return row([
        String(code),
        `\`DeliveryState.${names.get(code) ?? '?'}\``,
        info.name,
        info.dashboardState,
        typesList(info.appliesTo),
        info.final ? 'yes' : '',
        meaningsByType(code),
      ]);
    }),
  ];
  const exceptions = (table: Readonly<Record<number, string>>): string[] => [
    row(['exceptionCode', 'reason']),
    row(['---', '---']),
    ...Object.keys(table)
      .map(Number)
      .sort(byCode)
      .map((code) => row([String(code), table[code] ?? ''])),
  ];
  return [
    ...states,
    '',
    "Forward exceptions (state 47 on the way to the customer; `describeException(code, 'forward')`):",
    '',
    ...exceptions(ForwardExceptionReason),
    '',
    "Return exceptions (state 47 on the way back to the business; `describeException(code, 'return')`):",
    '',
    ...exceptions(ReturnExceptionReason),
  ].join('\n');
}

/** The page with the block between the markers replaced by {@link renderStateTables}. */
export function replaceStateTables(page: string): string {
  const start = page.indexOf(START_MARKER);
  const end = page.indexOf(END_MARKER);
  if (start === -1 || end < start) throw new Error(`docs/webhooks.md needs ${START_MARKER} followed by ${END_MARKER}`);
  return `${page.slice(0, start + START_MARKER.length)}\n${renderStateTables()}\n${page.slice(end)}`;
}

/** The block between the markers as it stands in `page`. */
export function currentStateTables(page: string): string | undefined {
  const start = page.indexOf(START_MARKER);
  const end = page.indexOf(END_MARKER);
  return start === -1 || end < start ? undefined : page.slice(start + START_MARKER.length, end).trim();
}

const PAGE = new URL('../docs/webhooks.md', import.meta.url);

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const before = readFileSync(PAGE, 'utf8');
  const after = replaceStateTables(before);
  if (after === before) console.log('docs/webhooks.md: the states table is up to date');
  else {
    writeFileSync(PAGE, after);
    console.log('docs/webhooks.md: the states table was rewritten from the catalogues');
  }
}
