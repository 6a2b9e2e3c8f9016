// The MCP tools are written from the declarations (scripts/operations/mcp.ts): one per operation,
// none by hand. A declared operation without its tool fails here; so does a tool whose name,
// documentation, parameters or rules drift from the operation it calls.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hoverText, toolName } from '../../scripts/operations/mcp.js';
import { rulesOf } from '../../scripts/operations/rules.js';
import { readOperations } from '../../scripts/operations.js';
import { DeliveryClient } from '../../src/index.js';
import { TOOLS } from '../../src/mcp/tools.js';
import { isEmailAddress, isPhoneNumber } from '../../src/schemas/predicates.js';
import { propertySeed } from '../support/property-seed.js';

const operations = readOperations();
const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));
/** A tool that must be there. */
const tool = (name: string) => {
  const found = byName.get(name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
};
type Schema = Record<string, unknown>;

/** The first `pattern` stated for a property named `name`, anywhere in `schema`. */
function patternOf(schema: unknown, name: string): RegExp {
  const found: string[] = [];
  const visit = (node: unknown, within: boolean): void => {
    if (node === null || typeof node !== 'object') return;
    if (within && typeof (node as Schema)['pattern'] === 'string') found.push((node as Schema)['pattern'] as string);
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties') for (const [property, inner] of Object.entries(value as object)) visit(inner, within || property === name);
      else visit(value, within);
    }
  };
  visit(schema, false);
  expect(found.length, name).toBeGreaterThan(0);
  return new RegExp(found[0] as string, 'u');
}

/** The schema `$ref` names in the tool's `$defs`, or the schema itself. */
const resolved = (schema: Schema, root: Schema): Schema =>
  typeof schema['$ref'] === 'string' ? ((root['$defs'] as Record<string, Schema>)[schema['$ref'].replace('#/$defs/', '')] as Schema) : schema;

describe('the MCP tools', () => {
  it('are one per declared operation, named namespace_method in snake case, each calling a method of the client', () => {
    expect(TOOLS.map((tool) => tool.operation)).toEqual(operations.map((operation) => `${operation.namespace}.${operation.method}`));
    for (const operation of operations) expect(byName.get(toolName(operation)), `${operation.namespace}.${operation.method} has no tool`).toBeDefined();
    expect(byName.get('deliveries_track')?.operation).toBe('deliveries.track');
    expect(byName.get('pickup_locations_list')?.operation).toBe('pickupLocations.list');
    expect(byName.get('pickup_locations_set_default')?.operation).toBe('pickupLocations.setDefault');
    const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: 'k' }) as unknown as Record<string, Record<string, unknown>>;
    for (const tool of TOOLS) {
      const [namespace, method] = tool.operation.split('.') as [string, string];
      expect(typeof client[namespace]?.[method], tool.operation).toBe('function');
    }
  });

  it('describe themselves with the documentation of the method they call, as its hover shows it', () => {
    for (const operation of operations) {
      const tool = byName.get(toolName(operation));
      expect(tool?.description).toBe(hoverText(operation.doc));
      expect(tool?.description.startsWith(operation.summary.split(' ').slice(0, 4).join(' ')), tool?.name).toBe(true);
    }
    const get = byName.get('deliveries_get')?.description ?? '';
    expect(get).toContain('One order by its tracking number');
    expect(get).toContain("Example:\n```ts\nconst order = await client.deliveries.get('70000012');");
    expect(get).not.toMatch(/\/\*\*|\*\/|\n \* |@chunk/);
  });

  it('take the parameters of their method by name, the options only for what an operation adds to the call options', () => {
    const properties = (name: string): string[] => Object.keys((byName.get(name)?.inputSchema['properties'] as object | undefined) ?? {});
    expect(properties('deliveries_track')).toEqual(['trackingNumber']);
    expect(properties('deliveries_create')).toEqual(['order']);
    expect(properties('deliveries_update')).toEqual(['trackingNumberOrOrder', 'changes']);
    expect(properties('deliveries_list')).toEqual(['filter', 'options', 'cursor']);
    expect(properties('deliveries_wait_for_state')).toEqual(['trackingNumber', 'options']);
    const wait = (tool('deliveries_wait_for_state').inputSchema['properties'] as Record<string, Schema>)['options'] as Schema;
    expect(Object.keys(wait['properties'] as object)).toEqual(['until', 'pollInterval', 'maxPollInterval', 'totalTimeout']);
    for (const tool of TOOLS) {
      const operation = operations.find((candidate) => `${candidate.namespace}.${candidate.method}` === tool.operation);
      const named = (operation?.parameters ?? []).filter(
        (parameter) => parameter.schema !== undefined || (parameter.name === 'options' && operation?.kind === 'helper' && operation.calls.length > 0),
      );
      expect(
        properties(tool.name).filter((name) => name !== 'cursor'),
        tool.name,
      ).toEqual(named.map((parameter) => parameter.name));
      expect(tool.inputSchema['additionalProperties'], tool.name).toBe(false);
    }
  });

  it('carry the rules the SDK checks, wherever the input stands: the COD limits of each order type', () => {
    const root = tool('deliveries_create').inputSchema;
    const order = (root['properties'] as Record<string, Schema>)['order'] as Schema;
    const codOf = (title: string): Schema[] => {
      const shape = (order['anyOf'] as Schema[]).find((candidate) => candidate['title'] === title) as Schema;
      const cod = resolved((shape['properties'] as Record<string, Schema>)['cod'] as Schema, root);
      return cod['anyOf'] as Schema[];
    };
    expect(codOf('DeliverOrder')).toContainEqual({ type: 'number', minimum: 0, maximum: 30_000 });
    expect(codOf('CashCollectionOrder')).toContainEqual({ type: 'number', exclusiveMinimum: 0, maximum: 30_000 });
    expect(codOf('CustomerReturnPickupOrder')).toContainEqual({ type: 'number', maximum: 0, minimum: -30_000 });
    expect((order['anyOf'] as Schema[]).find((shape) => shape['title'] === 'CashCollectionOrder')?.['required']).toEqual(['type', 'pickupAddress', 'cod']);
    // In a list of orders too, and the address rules (3009) beside its fields.
    const bulk = JSON.stringify(byName.get('deliveries_create_bulk')?.inputSchema);
    expect(bulk).toContain('"exclusiveMinimum":0,"maximum":30000');
    expect(JSON.stringify(root)).toContain('{"anyOf":[{"required":["city"]},{"required":["zoneId"]},{"required":["districtId"]}]}');
  });

  it('state each rule no stricter than the SDK checks it: what the SDK takes, the schema takes', () => {
    const phone = patternOf(rulesOf('VerifyPhoneInput'), 'phone');
    const contactPhone = patternOf(rulesOf('DeliverOrder'), 'phone');
    const email = patternOf(rulesOf('RegisterBusinessAdminInput'), 'email');
    const digits = fc.constantFrom(...'0123456789٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹'.split(''));
    const phones = fc
      .tuple(fc.boolean(), fc.array(fc.oneof(digits, fc.constantFrom(' ', '-', '.', '(', ')')), { maxLength: 24 }))
      .map(([plus, chars]) => `${plus ? '+' : ''}${chars.join('')}`);
    fc.assert(
      fc.property(fc.oneof(phones, fc.string()), (text) => {
        if (isPhoneNumber(text)) expect(contactPhone.test(text), text).toBe(true);
        expect(phone.test(text) || text.trim() === '').toBe(true);
      }),
      { seed: propertySeed().seed, numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.oneof(fc.emailAddress(), fc.string()), (text) => {
        if (isEmailAddress(text)) expect(email.test(text), text).toBe(true);
      }),
      { seed: propertySeed().seed, numRuns: 300 },
    );
  });

  it('are read-only unless they change something, with the hints that say so', () => {
    for (const operation of operations) {
      const tool = byName.get(toolName(operation));
      expect(tool?.reads, tool?.name).toBe(operation.reads);
      expect(tool?.annotations.readOnlyHint, tool?.name).toBe(operation.reads);
      expect(tool?.annotations.idempotentHint, tool?.name).toBe(operation.idempotent === true);
      if (!operation.reads) expect(tool?.annotations.destructiveHint, tool?.name).toBe(operation.destructive);
    }
    expect(TOOLS.filter((tool) => tool.annotations.destructiveHint).map((tool) => tool.name)).toEqual([
      'deliveries_terminate',
      'pickups_delete',
      'pickup_locations_delete',
    ]);
  });

  it('give lists 50 items at a time, and what may be nothing inside { result }', () => {
    expect(byName.get('deliveries_list')?.answer).toBe('many');
    expect(byName.get('lookup_cities')?.answer).toBe('list');
    expect(byName.get('deliveries_find_by_reference')?.answer).toBe('wrapped');
    expect(byName.get('deliveries_list')?.outputSchema).toMatchObject({
      properties: { items: { type: 'array', maxItems: 50 }, nextCursor: { type: 'string' } },
    });
    expect(byName.get('deliveries_airway_bills')?.outputSchema).toMatchObject({ properties: { uri: { type: 'string' }, mimeType: { type: 'string' } } });
  });
});
