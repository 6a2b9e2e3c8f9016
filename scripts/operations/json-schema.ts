/**
 * The JSON form of a declaration's types, for the MCP tools (mcp.ts): a TypeScript type as the
 * JSON Schema (draft-07) of what a JSON caller passes or gets back, each property with its
 * documentation. What JSON cannot carry (a function, a signal, an async iterable) is left out: a
 * property of that type is not listed, a union loses that member. An input type the SDK checks
 * with its schemas is given as those schemas say (rules.ts), the rules included.
 *
 * An answer is what the service sent, read leniently: the SDK makes sure of the fields its types
 * require (an order's `_id`, a page's list) and passes the others on as sent, `null`, a number for
 * a string and all. So an output schema types only what is required all the way down; an optional
 * field keeps its documentation and shape, without a keyword that could refuse what was sent.
 */
import ts from 'typescript';
import type { JsonSchema } from './descriptor.js';

/** Whether a schema is of what a call takes or of what it gives back. */
export type Direction = 'input' | 'output';

export interface SchemaOptions {
  readonly direction: Direction;
  /** The rules of an input type the SDK checks, as JSON Schema, by the type's name (rules.ts); undefined for one it does not. */
  readonly rules?: ((typeName: string) => JsonSchema | undefined) | undefined;
  /** A property left out (the call options every method takes). */
  readonly leaveOut?: ((property: ts.Symbol) => boolean) | undefined;
  /** The type's name as written, where TypeScript knows it by another (`PickupChanges`, an alias of `Partial<PickupInput>`). */
  readonly writtenAs?: string | undefined;
}

/** A type's JSON Schema, and whether the SDK checks (some of) it with its own rules. */
export interface Converted {
  /** Undefined when JSON cannot carry the type (a function, a signal). */
  readonly schema: JsonSchema | undefined;
  /** `undefined` is one of its values: a property of it may be left out. */
  readonly undefinable: boolean;
  /** Part of it is an input type the SDK checks (its schema holds the SDK's rules). */
  readonly checked: boolean;
}

/** What a label file becomes in a tool's answer: a resource to read, or a file saved under `--out` (src/mcp/files.ts). */
export const FILE_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'A file (a PDF of labels): read it as the resource `uri`, or open `path` when the server saves files (`--out`).',
  properties: {
    uri: { type: 'string', description: 'The resource to read (resources/read).' },
    mimeType: { type: 'string' },
    size: { type: 'integer', description: 'Bytes.' },
    path: { type: 'string', description: 'Where the file was saved, when the server saves files.' },
  },
  required: ['uri', 'mimeType', 'size'],
};

/** An error the SDK threw, as its `toJSON` writes it (no key). */
export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'An error: its class (`name`), `message`, and `errorCode`, `hint`, `mayExist` when it has them.',
  properties: {
    name: { type: 'string' },
    message: { type: 'string' },
    errorCode: { type: 'integer' },
    hint: { type: 'string' },
    mayExist: { type: 'boolean' },
  },
  required: ['name', 'message'],
};

/** Types JSON has no form for: a parameter or property of one is not offered, a union loses it. */
const NOT_JSON = new Set([
  'AbortSignal',
  'AsyncIterable',
  'AsyncIterableIterator',
  'AsyncGenerator',
  'Promise',
  'PromiseLike',
  'ReadableStream',
  'Map',
  'Set',
  'WeakMap',
  'Function',
]);
/** Types a JSON array stands for. */
const LIST_LIKE = new Set(['Iterable', 'IterableIterator', 'Generator', 'ReadonlyArray', 'Array']);

/** The words of a JSDoc comment as plain text: `{@link DeliveryState}` as `DeliveryState`. */
export function plainText(parts: readonly ts.SymbolDisplayPart[]): string {
  return ts
    .displayPartsToString(parts as ts.SymbolDisplayPart[])
    .replace(/\{@link(?:code|plain)?\s+([^}|\s]+)(?:[\s|]+([^}]*))?\}/g, (_, target: string, text?: string) => (text?.trim() ? text.trim() : target))
    .trim();
}

/** The JSON Schema of `type` (see the module's comment). */
export function jsonSchemaOf(checker: ts.TypeChecker, type: ts.Type, options: SchemaOptions): Converted {
  let checked = false;
  const stack = new Set<ts.Type>();

  const nameOf = (candidate: ts.Type): string | undefined =>
    candidate === type && options.writtenAs !== undefined ? options.writtenAs : (candidate.aliasSymbol?.name ?? candidate.getSymbol()?.name);

  function convert(current: ts.Type): { schema: JsonSchema | undefined; undefinable: boolean } {
    const flags = current.flags;
    if (flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return { schema: undefined, undefinable: true };
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return { schema: {}, undefinable: true };
    if (flags & ts.TypeFlags.Never) return { schema: undefined, undefinable: false };
    if (options.direction === 'input' && options.rules !== undefined) {
      const name = nameOf(current);
      const ruled = name === undefined ? undefined : options.rules(name);
      if (ruled !== undefined) {
        checked = true;
        return { schema: withDescriptions(ruled, convertPlain(current).schema), undefinable: false };
      }
    }
    return convertPlain(current);
  }

  /** `current` converted, titled with its name when the SDK declares one: the name a shared schema is kept under (`$defs`, mcp.ts). */
  function convertPlain(current: ts.Type): { schema: JsonSchema | undefined; undefinable: boolean } {
    const converted = convertUntitled(current);
    const title = titleOf(current);
    if (title === undefined || converted.schema === undefined || !('properties' in converted.schema || 'anyOf' in converted.schema)) return converted;
    return { ...converted, schema: { title, ...converted.schema } };
  }

  function titleOf(current: ts.Type): string | undefined {
    const symbol = current.aliasSymbol ?? current.getSymbol();
    const declared = symbol?.declarations?.[0];
    if (symbol === undefined || declared === undefined || symbol.name.startsWith('__') || declared.getSourceFile().fileName.includes('/node_modules/'))
      return undefined;
    return symbol.name;
  }

  function convertUntitled(current: ts.Type): { schema: JsonSchema | undefined; undefinable: boolean } {
    const flags = current.flags;
    if (flags & ts.TypeFlags.Null) return { schema: { type: 'null' }, undefinable: false };
    if (flags & ts.TypeFlags.StringLike && !(flags & ts.TypeFlags.StringLiteral)) return { schema: { type: 'string' }, undefinable: false };
    if (flags & ts.TypeFlags.NumberLike && !(flags & ts.TypeFlags.NumberLiteral)) return { schema: { type: 'number' }, undefinable: false };
    if (flags & ts.TypeFlags.BigIntLike) return { schema: { type: 'string', description: 'A whole number, written out.' }, undefinable: false };
    if (flags & ts.TypeFlags.BooleanLike && !(flags & ts.TypeFlags.BooleanLiteral)) return { schema: { type: 'boolean' }, undefinable: false };
    if (current.isStringLiteral()) return { schema: { type: 'string', const: current.value }, undefinable: false };
    if (current.isNumberLiteral())
      return { schema: { type: Number.isInteger(current.value) ? 'integer' : 'number', const: current.value }, undefinable: false };
    if (flags & ts.TypeFlags.BooleanLiteral) return { schema: { type: 'boolean', const: checker.typeToString(current) === 'true' }, undefinable: false };
    if (current.isUnion()) return union(current.types);
    if (current.isIntersection()) {
      // `string & {}` (an open list of known strings) is a string.
      const primitive = current.types.find((member) => member.flags & (ts.TypeFlags.String | ts.TypeFlags.Number));
      if (primitive !== undefined) return convert(primitive);
    }
    if (flags & ts.TypeFlags.Object || current.isIntersection()) {
      if (stack.has(current)) return { schema: {}, undefinable: false };
      stack.add(current);
      try {
        return { schema: objectSchema(current), undefinable: false };
      } finally {
        stack.delete(current);
      }
    }
    return { schema: {}, undefinable: false };
  }

  function union(members: readonly ts.Type[]): { schema: JsonSchema | undefined; undefinable: boolean } {
    let undefinable = false;
    let nullable = false;
    const literals = new Map<string, Array<string | number | boolean>>();
    const primitives = new Set<string>();
    const others: JsonSchema[] = [];
    for (const member of members) {
      const { schema, undefinable: maybeUndefined } = convert(member);
      undefinable ||= maybeUndefined;
      if (schema === undefined) continue;
      if (schema['type'] === 'null') nullable = true;
      else if ('const' in schema && typeof schema['type'] === 'string' && Object.keys(schema).length === 2) {
        const kind = schema['type'] === 'integer' ? 'number' : (schema['type'] as string);
        literals.set(kind, [...(literals.get(kind) ?? []), schema['const'] as string | number | boolean]);
      } else if (Object.keys(schema).length === 1 && typeof schema['type'] === 'string' && ['string', 'number', 'boolean'].includes(schema['type']))
        primitives.add(schema['type']);
      else others.push(schema);
    }
    const schemas: JsonSchema[] = [];
    for (const kind of ['string', 'number', 'boolean']) {
      const values = literals.get(kind) ?? [];
      if (kind === 'boolean' && values.length === 2) primitives.add('boolean');
      // Known values of an open list (`'A4' | (string & {})`) are examples; of a closed one, the only values.
      if (primitives.has(kind)) schemas.push(values.length === 0 || kind === 'boolean' ? { type: kind } : { type: kind, examples: values });
      else if (values.length === 1) schemas.push({ type: kind === 'number' && Number.isInteger(values[0]) ? 'integer' : kind, const: values[0] });
      else if (values.length > 1)
        schemas.push({ type: kind === 'number' && values.every((value) => Number.isInteger(value)) ? 'integer' : kind, enum: values });
    }
    schemas.push(...others);
    if (schemas.length === 0) return { schema: nullable ? { type: 'null' } : undefined, undefinable };
    let schema: JsonSchema = schemas.length === 1 ? (schemas[0] as JsonSchema) : { anyOf: schemas };
    if (nullable) schema = withNull(schema);
    return { schema, undefinable };
  }

  function objectSchema(current: ts.Type): JsonSchema | undefined {
    const name = current.getSymbol()?.name ?? '';
    if (checker.isTupleType(current) || checker.isArrayType(current) || LIST_LIKE.has(name)) {
      const element = checker.getTypeArguments(current as ts.TypeReference)[0] ?? checker.getIndexTypeOfType(current, ts.IndexKind.Number);
      const items = element === undefined ? {} : convert(element).schema;
      return items === undefined ? undefined : { type: 'array', items };
    }
    if (NOT_JSON.has(name) || NOT_JSON.has(current.aliasSymbol?.name ?? '')) return undefined;
    if (name === 'Uint8Array' || name === 'ArrayBuffer') return options.direction === 'output' ? FILE_SCHEMA : undefined;
    if (name === 'Date') return { type: 'string', format: 'date-time' };
    if (isError(current)) return options.direction === 'output' ? ERROR_SCHEMA : { type: 'object', description: ERROR_SCHEMA['description'] };
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const declared = checker.getPropertiesOfType(current);
    if (declared.length === 0 && current.getCallSignatures().length > 0) return undefined;
    for (const property of declared) {
      if (property.flags & ts.SymbolFlags.Method || options.leaveOut?.(property)) continue;
      const propertyType = checker.getTypeOfSymbol(property);
      if (propertyType.getCallSignatures().length > 0 && checker.getPropertiesOfType(propertyType).length === 0) continue;
      const { schema, undefinable } = convert(propertyType);
      if (schema === undefined) continue;
      const description = plainText(property.getDocumentationComment(checker));
      properties[property.name] = description === '' || 'description' in schema ? schema : { description, ...schema };
      if (!(property.flags & ts.SymbolFlags.Optional) && !undefinable) required.push(property.name);
    }
    const out: JsonSchema = { type: 'object', properties };
    if (required.length > 0) out['required'] = required;
    // Other fields are left open, as the SDK leaves them: it sends them as given (a filter's), or reads
    // what it needs of a record passed back as read (`airwayBillFiles` takes orders from `list`).
    const index = checker.getIndexInfosOfType(current).find((info) => info.keyType.flags & ts.TypeFlags.String);
    if (index !== undefined) {
      const values = convert(index.type).schema;
      if (values !== undefined && Object.keys(values).length > 0) out['additionalProperties'] = values;
    }
    return out;
  }

  function isError(current: ts.Type): boolean {
    const symbol = current.getSymbol();
    if (symbol === undefined || !(symbol.flags & ts.SymbolFlags.Class)) return false;
    for (let base: ts.Type | undefined = current; base !== undefined; ) {
      if (base.getSymbol()?.name === 'Error') return true;
      base = checker.getBaseTypes(base as ts.InterfaceType)[0];
    }
    return false;
  }

  const { schema, undefinable } = convert(type);
  return { schema: schema === undefined || options.direction === 'input' ? schema : lenient(schema, true), undefinable, checked };
}

/** `schema`, or null. */
function withNull(schema: JsonSchema): JsonSchema {
  const { type } = schema;
  if (typeof type === 'string' && schema['const'] === undefined && schema['enum'] === undefined) return { ...schema, type: [type, 'null'] };
  return { anyOf: [...((schema['anyOf'] as JsonSchema[] | undefined) ?? [schema]), { type: 'null' }] };
}

/** The keywords that can refuse a value; an output schema keeps them only where the SDK makes sure of the value. */
const REFUSING = ['type', 'const', 'enum', 'required', 'format', 'pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'];

/**
 * An output schema that refuses nothing the SDK passes on as sent: below a property that is not
 * required, only documentation and shape are kept (see the module's comment).
 */
function lenient(schema: JsonSchema, guaranteed: boolean): JsonSchema {
  const out: JsonSchema = {};
  const required = new Set(guaranteed && Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  for (const [keyword, value] of Object.entries(schema)) {
    if (!guaranteed && REFUSING.includes(keyword)) continue;
    if (keyword === 'additionalProperties') continue;
    if (keyword === 'properties')
      out[keyword] = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([name, inner]) => [name, lenient(inner, required.has(name))]));
    else if (keyword === 'items') out[keyword] = lenient(value as JsonSchema, guaranteed);
    else if (keyword === 'anyOf') {
      const members = (value as JsonSchema[]).map((member) => lenient(member, guaranteed));
      // Documentation of several shapes refuses nothing either way: one shape that says nothing stands for them.
      if (guaranteed) out[keyword] = members;
      else if (members.some((member) => Object.keys(member).length > 0)) out[keyword] = members.filter((member) => Object.keys(member).length > 0);
    } else out[keyword] = value;
  }
  return out;
}

/**
 * The rules' schema (rules.ts, from the SDK's own checks) with the documentation of the type it
 * checks: each property's description, where both name the same property.
 */
export function withDescriptions(rules: JsonSchema, documented: JsonSchema | undefined): JsonSchema {
  if (documented === undefined) return rules;
  const out: JsonSchema = { ...rules };
  for (const keyword of ['title', 'description'] as const)
    if (typeof documented[keyword] === 'string' && out[keyword] === undefined) out[keyword] = documented[keyword];
  const properties = rules['properties'] as Record<string, JsonSchema> | undefined;
  const documentedProperties = propertiesOf(documented);
  if (properties !== undefined)
    out['properties'] = Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, withDescriptions(inner, documentedProperties[name])]));
  if (rules['items'] !== undefined && documented['items'] !== undefined)
    out['items'] = withDescriptions(rules['items'] as JsonSchema, documented['items'] as JsonSchema);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const members = rules[keyword] as JsonSchema[] | undefined;
    if (members !== undefined) out[keyword] = members.map((member) => withDescriptions(member, counterpart(member, documented)));
  }
  return out;
}

/** Every property a documented schema (or any of its shapes) names. */
function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  const own = (schema['properties'] as Record<string, JsonSchema> | undefined) ?? {};
  const shapes = ((schema['anyOf'] as JsonSchema[] | undefined) ?? []).map(propertiesOf);
  return Object.assign({}, ...shapes.reverse(), own);
}

/**
 * The shape of `documented` that a member of the rules' union stands for: the one with the same
 * `type` constant, else the same JSON type. Its own words only: what the whole union says (its
 * description, its title) is said once, beside the union.
 */
function counterpart(member: JsonSchema, documented: JsonSchema): JsonSchema | undefined {
  const { title: _, description: __, ...shape } = documented;
  const shapes = (documented['anyOf'] as JsonSchema[] | undefined) ?? [shape];
  const constant = (member['properties'] as Record<string, JsonSchema> | undefined)?.['type']?.['const'];
  if (constant !== undefined)
    return shapes.find((candidate) => (candidate['properties'] as Record<string, JsonSchema> | undefined)?.['type']?.['const'] === constant) ?? shape;
  if (member['type'] === 'null') return undefined;
  return shapes.find((candidate) => candidate['type'] === member['type'] || candidate['properties'] !== undefined) ?? shape;
}
