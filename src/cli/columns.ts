/**
 * CSV columns to orders. A column's name is the path of an order field, as `deliveries.create`
 * takes it (`receiver.phone`, `dropOffAddress.city`, `cod`); a cell becomes that field, typed by
 * this table. A value that does not read cleanly as its type (`cod` of `1,250`, a boolean of
 * `maybe`) is sent to the SDK's check as the text it is, so the check refuses the row naming the
 * field, as it would refuse the same mistake in code. An empty cell leaves the field out.
 * docs/cli.md lists the table; examples/data/orders-import.csv shows it.
 */
import { UsageError } from './exit.js';
import { didYouMean } from './suggest.js';

/** How a cell is read. */
type Kind =
  | 'text'
  /** A decimal number (`1250`, `-300`, `99.5`). */
  | 'number'
  /** `true`/`false`, `yes`/`no`, `1`/`0`, any case. */
  | 'boolean'
  /** A number (`10`, `15`, `25`, `30`) or a fulfillment type's name (`FXF_SEND`). */
  | 'type'
  /** Image URLs separated by spaces or line breaks: one `ALLOW_TO_OPEN_THE_PACKAGE` entry; or the whole field as JSON. */
  | 'images'
  /** The whole field as JSON (an object or an array). */
  | 'json';

/** A field holding fields; `open` ones take any further name (as text unless listed), and JSON for the whole. */
interface Group {
  readonly fields: Readonly<Record<string, Kind | Group>>;
  readonly open?: boolean;
}

const group = (fields: Group['fields'], open = false): Group => ({ fields, open });
const contact = group({ firstName: 'text', lastName: 'text', phone: 'text', email: 'text' });
const address = group({
  city: 'text',
  cityId: 'text',
  districtId: 'text',
  districtName: 'text',
  zoneId: 'text',
  zone: 'text',
  district: 'text',
  firstLine: 'text',
  secondLine: 'text',
  buildingNumber: 'text',
  floor: 'text',
  apartment: 'text',
  isWorkAddress: 'boolean',
});

/** Every field of an order, as `OrderInput` has them. */
const ORDER = group({
  type: 'type',
  cod: 'number',
  dropOffAddress: address,
  pickupAddress: address,
  receiver: contact,
  pickupLocationContact: contact,
  businessReference: 'text',
  uniqueBusinessReference: 'text',
  businessLocationId: 'text',
  notes: 'text',
  specs: group({ packageType: 'text', size: 'text', packageDetails: group({ description: 'text', itemsCount: 'number' }) }),
  allowToOpenPackage: 'boolean',
  deliveryImages: 'images',
  escrowInfo: group({ amountToBeCollected: 'number' }),
  goodsInfo: group({ amount: 'number' }, true),
  webhookUrl: 'text',
  webhookCustomHeaders: group({}, true),
  fulfillmentInfo: group({ items: 'json' }, true),
  originalFulfillmentTrackingNumber: 'text',
});

/** A column: its path, and how its cells are read. */
export interface Column {
  readonly name: string;
  readonly path: readonly string[];
  readonly kind: Kind;
  /** The path without its last name, and that name: split once here rather than for every cell. */
  readonly parents: readonly string[];
  readonly leaf: string;
}

function kindOf(path: readonly string[]): Kind | undefined {
  let node: Kind | Group = ORDER;
  for (const [depth, name] of path.entries()) {
    if (typeof node === 'string' || name === '' || name === '__proto__') return undefined;
    const next: Kind | Group | undefined = Object.hasOwn(node.fields, name) ? node.fields[name] : undefined;
    if (next === undefined) return node.open === true && depth === path.length - 1 ? 'text' : undefined;
    node = next;
  }
  // A column naming a whole group takes it as JSON (`fulfillmentInfo`, `webhookCustomHeaders`); other groups are spelled out field by field.
  if (typeof node !== 'string') return node.open === true ? 'json' : undefined;
  return node;
}

/** The columns of a header, checked: every name a field path, none twice, none inside another. */
export function columnsOf(header: readonly string[]): Column[] {
  const columns: Column[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const raw of header) {
    const name = raw.trim();
    const path = name.split('.');
    const kind = name === '' ? undefined : kindOf(path);
    if (name === '') problems.push('a column has no name');
    else if (seen.has(name)) problems.push(`${shown(name)} is there twice`);
    else if (kind === undefined) problems.push(`${shown(name)} is not the path of an order field${didYouMean(name, paths(ORDER, []), 'short')}`);
    else columns.push({ name, path, kind, parents: path.slice(0, -1), leaf: path.at(-1) as string });
    seen.add(name);
  }
  for (const outer of columns) {
    const inner = columns.find((column) => column.name.startsWith(`${outer.name}.`));
    if (inner !== undefined) problems.push(`${shown(outer.name)} and ${shown(inner.name)} both set ${shown(outer.name)}: keep one`);
  }
  if (problems.length > 0)
    throw new UsageError(
      `the header does not name order fields: ${problems.slice(0, 10).join('; ')}${problems.length > 10 ? `; and ${problems.length - 10} more` : ''} (columns: docs/cli.md)`,
    );
  return columns;
}

/** A column's name as a message quotes it: its first 40 characters at most, never a whole cell of a file that is no order file. */
const shown = (name: string): string => `'${name.length > 40 ? `${name.slice(0, 40)}…` : name}'`;

function paths(node: Group, prefix: readonly string[]): string[] {
  return Object.entries(node.fields).flatMap(([name, child]) => (typeof child === 'string' ? [[...prefix, name].join('.')] : paths(child, [...prefix, name])));
}

const NUMBER = /^-?\d+(?:\.\d+)?$/;
const TRUE = new Set(['true', 'yes', '1']);
const FALSE = new Set(['false', 'no', '0']);

/** A cell read as its column's kind; the text itself when it does not read cleanly (the check then names the field). */
function cellValue(kind: Kind, text: string): unknown {
  switch (kind) {
    case 'number':
      return NUMBER.test(text) ? Number(text) : text;
    case 'type':
      return /^\d+$/.test(text) ? Number(text) : text;
    case 'boolean': {
      const lower = text.toLowerCase();
      return TRUE.has(lower) ? true : FALSE.has(lower) ? false : text;
    }
    case 'images':
      return text.startsWith('[') ? json(text) : [{ type: 'ALLOW_TO_OPEN_THE_PACKAGE', images: text.split(/\s+/) }];
    case 'json':
      return json(text);
    default:
      return text;
  }
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The order a CSV record describes: one field per non-empty cell, at its path. */
export function orderOf(columns: readonly Column[], cells: readonly string[]): Record<string, unknown> {
  const order: Record<string, unknown> = {};
  for (let index = 0; index < columns.length; index++) {
    const text = (cells[index] ?? '').trim();
    if (text === '') continue;
    const column = columns[index] as Column;
    let target = order;
    for (const name of column.parents) target = (target[name] ??= {}) as Record<string, unknown>;
    target[column.leaf] = cellValue(column.kind, text);
  }
  return order;
}
