/**
 * The MCP writer: every operation as a tool of `delivery-sdk mcp` (src/mcp/), from the list of
 * operations alone, so a new operation is a new tool with no line written for it:
 * - src/mcp/tools.ts: each tool's name (`namespace_method` in snake case), description (the
 *   operation's documentation, as its hover shows it), input schema (its parameters by name, as
 *   JSON Schema, with the rules the SDK checks), output schema, annotations and how its answer is
 *   given;
 * - the list of tools in docs/mcp.md, between its markers.
 */
import { NAMESPACES, type NamespaceName } from '../../src/functions/namespaces.js';
import type { JsonSchema, OperationDescriptor } from './descriptor.js';

/** At most this many items a list answers at once; `nextCursor` continues it (src/mcp/ reads it from tools.ts). */
export const PAGE_SIZE = 50;

/** `deliveries_track`, `pickup_locations_set_default`. */
export const toolName = (operation: Pick<OperationDescriptor, 'namespace' | 'method'>): string =>
  `${operation.namespace}_${operation.method}`.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** How a tool's answer is given: an object as it is, a value inside `{ result }`, a list or a yielded sequence 50 at a time, or nothing. */
type Answer = 'value' | 'wrapped' | 'list' | 'many' | 'none';

function answerOf(operation: OperationDescriptor): Answer {
  const { schema, many, optional } = operation.result;
  if (schema === undefined) return 'none';
  if (many) return 'many';
  if (schema['type'] === 'array' && !optional) return 'list';
  // What may be nothing (none found) goes in `{ result }`: structuredContent is always an object.
  return schema['type'] === 'object' && schema['properties'] !== undefined && !optional ? 'value' : 'wrapped';
}

/** A helper sends several requests (or waits between them): its tool takes the time the whole call may take. */
const takesTime = (operation: OperationDescriptor): boolean => operation.kind === 'helper' && operation.calls.length > 0;

/** An operation that sends nothing (`lookup.clearCache`) talks to no world outside the server. */
const sendsRequests = (operation: OperationDescriptor): boolean => operation.kind === 'endpoint' || operation.calls.length > 0;

const TOTAL_TIMEOUT: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description:
    'Milliseconds the whole call may take, every request and wait of it. Default: the server’s `timeout` (50,000), within the 60 s an assistant usually waits for a tool; a longer one needs an assistant that waits longer.',
};

const CURSOR: JsonSchema = {
  type: 'string',
  description: `The \`nextCursor\` of the previous answer: the next ${PAGE_SIZE} items of the same list (the other arguments are not read again).`,
};

/** The input schema: each parameter by name (the options, only what the operation adds to the call options), and a list's `cursor`. */
function inputSchemaOf(operation: OperationDescriptor, answer: Answer): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const parameter of operation.parameters) {
    let schema = parameter.schema;
    if (parameter.name === 'options' && takesTime(operation)) {
      const own = (schema?.['properties'] as Record<string, JsonSchema> | undefined) ?? {};
      schema = { ...(schema ?? { type: 'object', additionalProperties: false }), properties: { ...own, totalTimeout: TOTAL_TIMEOUT } };
    }
    if (schema === undefined) {
      if (!parameter.optional)
        throw new Error(
          `${operation.location.file}:${operation.location.line}: ${parameter.name} (${parameter.type}) has no JSON form: its tool could not be called`,
        );
      continue;
    }
    properties[parameter.name] = schema;
    if (!parameter.optional) required.push(parameter.name);
  }
  if (answer === 'list' || answer === 'many') properties['cursor'] = CURSOR;
  return shared({ type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false });
}

function outputSchemaOf(operation: OperationDescriptor, answer: Answer): JsonSchema {
  const { schema } = operation.result;
  switch (answer) {
    case 'none':
      return { type: 'object', properties: {} };
    case 'value':
      return shared(schema as JsonSchema);
    case 'wrapped':
      return shared({ type: 'object', properties: { result: schema as JsonSchema } });
    default: {
      const items = answer === 'list' ? ((schema as JsonSchema)['items'] as JsonSchema) : (schema as JsonSchema);
      return shared({
        type: 'object',
        properties: {
          items: { type: 'array', items, maxItems: PAGE_SIZE },
          nextCursor: { type: 'string', description: 'Pass it as `cursor` to read on; absent at the end of the list.' },
        },
        required: ['items'],
      });
    }
  }
}

/**
 * `schema` with each titled part that stands in it more than once kept once, under `$defs` by its
 * title: an order's schema names its address, contact and parts in each of its six types.
 */
function shared(schema: JsonSchema): JsonSchema {
  return keptOnce(factored(schema) as JsonSchema);
}

/**
 * `node` with the properties every shape of a union of objects has alike said once, beside the
 * union (the fields all six order types share): the same values pass, in a third of the words.
 * Not where a shape refuses other properties (`additionalProperties: false`), which would then
 * refuse the shared ones.
 */
function factored(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(factored);
  if (node === null || typeof node !== 'object') return node;
  const out = Object.fromEntries(
    Object.entries(node).map(([keyword, value]) => [
      keyword,
      keyword === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([name, child]) => [name, factored(child)])) : factored(value),
    ]),
  ) as JsonSchema;
  const members = out['anyOf'] as JsonSchema[] | undefined;
  if (members === undefined || members.length < 2 || out['properties'] !== undefined) return out;
  const shapes = members.map((member) => member['properties'] as Record<string, unknown> | undefined);
  if (shapes.some((shape) => shape === undefined) || members.some((member) => member['type'] !== 'object' || member['additionalProperties'] === false))
    return out;
  const [first, ...others] = shapes as Array<Record<string, unknown>>;
  const alike = Object.keys(first as object).filter((name) =>
    others.every((shape) => name in shape && JSON.stringify(shape[name]) === JSON.stringify((first as Record<string, unknown>)[name])),
  );
  if (alike.length === 0) return out;
  const requiredBy = (member: JsonSchema): string[] => (member['required'] as string[] | undefined) ?? [];
  const requiredByAll = alike.filter((name) => members.every((member) => requiredBy(member).includes(name)));
  const properties = Object.fromEntries(alike.map((name) => [name, (first as Record<string, unknown>)[name]]));
  return {
    ...out,
    type: 'object',
    properties,
    ...(requiredByAll.length > 0 ? { required: requiredByAll } : {}),
    anyOf: members.map((member) => {
      const { type: _, properties: own, required, ...rest } = member;
      const kept = requiredBy(member).filter((name) => !requiredByAll.includes(name));
      return {
        ...rest,
        properties: Object.fromEntries(Object.entries(own as object).filter(([name]) => !alike.includes(name))),
        ...(kept.length > 0 ? { required: kept } : {}),
      };
    }),
  };
}

function keptOnce(schema: JsonSchema): JsonSchema {
  // Bottom up, each titled part (its description aside, which says where it stands) becomes a
  // placeholder naming its content, the parts inside it already placeholders: equal parts, one key.
  const parts = new Map<string, { content: JsonSchema; count: number }>();
  const PLACEHOLDER = '\u0000part:';
  const mapChildren = (node: JsonSchema, map: (child: unknown) => unknown): JsonSchema =>
    Object.fromEntries(
      Object.entries(node).map(([keyword, value]) => [
        keyword,
        keyword === 'properties' || keyword === '$defs'
          ? Object.fromEntries(Object.entries(value as object).map(([name, child]) => [name, map(child)]))
          : map(value),
      ]),
    );
  const collect = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(collect);
    if (node === null || typeof node !== 'object') return node;
    const inner = mapChildren(node as JsonSchema, collect);
    if (typeof inner['title'] !== 'string') return inner;
    const { description, ...content } = inner;
    const key = JSON.stringify(content);
    const part = parts.get(key) ?? { content, count: 0 };
    part.count += 1;
    parts.set(key, part);
    return { ...(description === undefined ? {} : { description }), $ref: PLACEHOLDER + key };
  };
  const collected = collect(schema) as JsonSchema;
  // Top down: a part met once goes back in place; one met more often is kept once, in `$defs`.
  const defs: Record<string, JsonSchema> = {};
  const names = new Map<string, string>();
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve);
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as JsonSchema)['$ref'];
    if (typeof ref === 'string' && ref.startsWith(PLACEHOLDER)) {
      const key = ref.slice(PLACEHOLDER.length);
      const { content, count } = parts.get(key) as { content: JsonSchema; count: number };
      const { description } = node as JsonSchema;
      if (count < 2) return { ...(description === undefined ? {} : { description }), ...(resolve(content) as JsonSchema) };
      let name = names.get(key);
      if (name === undefined) {
        const title = content['title'] as string;
        name = title;
        for (let n = 2; name in defs; n++) name = `${title}${n}`;
        names.set(key, name);
        defs[name] = {};
        defs[name] = resolve(content) as JsonSchema;
      }
      return { ...(description === undefined ? {} : { description }), $ref: `#/$defs/${name}` };
    }
    return mapChildren(node as JsonSchema, resolve);
  };
  // The schema itself stays whole at the top, whatever its title.
  const { $ref: top, description } = collected;
  const root =
    typeof top === 'string'
      ? { ...(description === undefined ? {} : { description }), ...(parts.get(top.slice(PLACEHOLDER.length)) as { content: JsonSchema }).content }
      : collected;
  const resolved = mapChildren(root, resolve);
  return Object.keys(defs).length === 0 ? resolved : { ...resolved, $defs: defs };
}

/** `{@link verifyPhone}` as `verifyPhone`, as a hover shows it. */
const unlinked = (text: string): string =>
  text.replace(/\{@link(?:code|plain)?\s+([^}|\s]+)(?:[\s|]+([^}]*))?\}/g, (_, target: string, words?: string) => (words?.trim() ? words.trim() : target));

/** The operation's documentation as its hover shows it: plain text, the tags in words. */
export function hoverText(doc: string): string {
  return unlinked(
    doc
      .replace(/^\s*\/\*\*/, '')
      .replace(/\*\/\s*$/, '')
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .join('\n'),
  )
    .replace(/^@example\s*$/gm, 'Example:')
    .replace(/^@throws\s+/gm, 'Throws ')
    .trim();
}

/** One tool as src/mcp/tools.ts declares it. */
function toolOf(operation: OperationDescriptor): Record<string, unknown> {
  const answer = answerOf(operation);
  const options = operation.parameters.find((parameter) => parameter.name === 'options');
  return {
    name: toolName(operation),
    operation: `${operation.namespace}.${operation.method}`,
    description: hoverText(operation.doc),
    parameters: operation.parameters.map((parameter) => parameter.name),
    checked: operation.parameters.filter((parameter) => parameter.checked).map((parameter) => parameter.name),
    answer,
    reads: operation.reads,
    ...(options?.callbacks.includes('onProgress') ? { progress: true } : {}),
    annotations: {
      readOnlyHint: operation.reads,
      ...(operation.reads ? {} : { destructiveHint: operation.destructive }),
      idempotentHint: operation.idempotent === true,
      openWorldHint: sendsRequests(operation),
    },
    inputSchema: inputSchemaOf(operation, answer),
    outputSchema: outputSchemaOf(operation, answer),
  };
}

/**
 * src/mcp/tools.ts: a line per tool, its declaration as JSON text that `JSON.parse` reads (a third
 * of the bytes an object literal is once built, and quicker to load).
 */
export function renderTools(rows: readonly OperationDescriptor[], header: string): string {
  // `${` of the examples' template literals written `$\u007b`, as JSON may: the same text, and no placeholder to a linter.
  const lines = rows.map((row) => `  JSON.parse(${JSON.stringify(JSON.stringify(toolOf(row)).replaceAll('${', '$\\u007b'))}),`);
  return `${header}import type { ToolDeclaration } from './tool.js';

/** Every operation as a tool, in the client's order (scripts/operations/mcp.ts). */
export const TOOLS: readonly ToolDeclaration[] = [
${lines.join('\n')}
];

/** At most this many items a list answers at once. */
export const PAGE_SIZE = ${PAGE_SIZE};
`;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The list of tools in docs/mcp.md: by namespace, each with what it does and its hints. */
export function renderToolList(rows: readonly OperationDescriptor[]): string {
  const sections = (Object.keys(NAMESPACES) as NamespaceName[])
    .filter((namespace) => rows.some((row) => row.namespace === namespace))
    .map((namespace) => {
      const lines = rows
        .filter((row) => row.namespace === namespace)
        .map((row) => {
          const hints = [
            row.reads ? 'read-only' : 'writes (`--allow-writes`)',
            ...(row.destructive ? ['destructive'] : []),
            ...(row.idempotent === true ? ['idempotent'] : []),
          ].join(', ');
          return `| \`${toolName(row)}\` | ${cell(unlinked(row.summary))} | ${hints} |`;
        });
      return `### ${namespace}\n\n${NAMESPACES[namespace]}\n\n| Tool | What it does | Mode |\n|---|---|---|\n${lines.join('\n')}`;
    });
  return sections.join('\n\n');
}
