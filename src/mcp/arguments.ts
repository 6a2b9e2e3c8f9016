/**
 * A tool's arguments checked against its input schema before the call, each problem naming its
 * field (`filter.page: expected an integer, received 'two'`). The parameters the SDK checks itself
 * (`checked`: an order, a pickup) are left to it: its refusal names the field too, and gives the
 * errorCode of a coded rule (3007 for a cod over the limit), which a schema refusal would not.
 *
 * The schemas are the generator's (scripts/operations/), so this reads the keywords it writes
 * and no others: a small reader rather than a validator library, whose messages name a missing
 * or an unknown field less plainly.
 */
import { ValidationError, type ValidationIssue } from '../errors/index.js';
import { isRecord, shown } from '../internal/guards.js';
import type { JsonSchema, ToolDeclaration } from './tool.js';

type Path = Array<string | number>;

/** Arguments that do not fit the tool: a `ValidationError` whose paths start at the arguments' names. */
export class ArgumentsError extends ValidationError {}

/** The arguments as the tool's call reads them, or the error listing what does not fit. */
export function checkArguments(tool: ToolDeclaration, given: unknown): Record<string, unknown> | ArgumentsError {
  const subject = `Invalid arguments of ${tool.name}`;
  if (given !== undefined && !isRecord(given))
    return new ArgumentsError([{ path: [], message: `expected an object of arguments, received ${shown(given)}` }], { subject });
  const args = given ?? {};
  const properties = (tool.inputSchema['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = (tool.inputSchema['required'] ?? []) as string[];
  const issues: ValidationIssue[] = [];
  for (const name of Object.keys(args))
    if (!(name in properties)) issues.push({ path: [name], message: `is not an argument of ${tool.name}, which takes ${listed(Object.keys(properties))}` });
  for (const name of required) if (args[name] === undefined) issues.push({ path: [name], message: 'required' });
  for (const [name, schema] of Object.entries(properties)) {
    const value = args[name];
    if (value === undefined || tool.checked.includes(name)) continue;
    issues.push(...problems(schema, value, [name], tool.inputSchema));
  }
  return issues.length === 0 ? args : new ArgumentsError(issues, { subject });
}

const listed = (names: readonly string[]): string => (names.length === 0 ? 'none' : names.map((name) => `'${name}'`).join(', '));

/** The JSON type of a value, as a schema's `type` names it. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const fits = (type: string, value: unknown): boolean => {
  const actual = jsonType(value);
  return actual === type || (type === 'number' && actual === 'integer');
};

const A_TYPE: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** What is wrong with `value` against `schema`, each problem with its path. */
function problems(schema: JsonSchema, value: unknown, path: Path, root: JsonSchema): ValidationIssue[] {
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const target = (root['$defs'] as Record<string, JsonSchema> | undefined)?.[ref.replace('#/$defs/', '')];
    return target === undefined ? [] : problems({ ...target, ...schema, $ref: undefined }, value, path, root);
  }
  const found: ValidationIssue[] = [];
  const types = schema['type'] === undefined ? undefined : ([] as string[]).concat(schema['type'] as string | string[]);
  if (types !== undefined && !types.some((type) => fits(type, value))) {
    return [{ path, message: `expected ${types.map((type) => A_TYPE[type] ?? type).join(' or ')}, received ${shown(value)}` }];
  }
  if ('const' in schema && value !== schema['const']) found.push({ path, message: `expected ${shown(schema['const'])}, received ${shown(value)}` });
  const choices = schema['enum'] as unknown[] | undefined;
  if (choices !== undefined && !choices.includes(value))
    found.push({ path, message: `expected one of ${choices.map(shown).join(', ')}, received ${shown(value)}` });
  if (typeof value === 'string') found.push(...stringProblems(schema, value, path));
  if (typeof value === 'number') found.push(...numberProblems(schema, value, path));
  if (Array.isArray(value)) found.push(...arrayProblems(schema, value, path, root));
  else if (isRecord(value)) found.push(...objectProblems(schema, value, path, root));
  for (const part of (schema['allOf'] as JsonSchema[] | undefined) ?? []) found.push(...problems(part, value, path, root));
  const forms = schema['anyOf'] as JsonSchema[] | undefined;
  if (forms !== undefined) found.push(...anyOfProblems(forms, value, path, root));
  return found;
}

/** None of `forms` fits: the problems of the one form of the value's JSON type, when there is one; else that it fits none. */
function anyOfProblems(forms: readonly JsonSchema[], value: unknown, path: Path, root: JsonSchema): ValidationIssue[] {
  const each = forms.map((form) => problems(form, value, path, root));
  if (each.some((found) => found.length === 0)) return [];
  const sameType = forms.flatMap((form, at) => {
    const type = resolved(form, root)['type'];
    return type === undefined || ([] as string[]).concat(type as string).some((candidate) => fits(candidate, value)) ? [each[at] as ValidationIssue[]] : [];
  });
  if (sameType.length === 1) return sameType[0] as ValidationIssue[];
  return [{ path, message: `fits none of its forms: ${each.map((found) => found[0]?.message ?? '').join('; or ')}` }];
}

const resolved = (schema: JsonSchema, root: JsonSchema): JsonSchema => {
  const ref = schema['$ref'];
  return typeof ref === 'string' ? ((root['$defs'] as Record<string, JsonSchema> | undefined)?.[ref.replace('#/$defs/', '')] ?? schema) : schema;
};

function stringProblems(schema: JsonSchema, value: string, path: Path): ValidationIssue[] {
  const found: ValidationIssue[] = [];
  const { minLength, maxLength, pattern } = schema as { minLength?: number; maxLength?: number; pattern?: string };
  const length = [...value].length;
  if (minLength !== undefined && length < minLength)
    found.push({ path, message: minLength === 1 ? 'must not be empty' : `must be at least ${minLength} characters` });
  if (maxLength !== undefined && length > maxLength) found.push({ path, message: `must be at most ${maxLength} characters` });
  if (pattern !== undefined && !new RegExp(pattern, 'u').test(value)) found.push({ path, message: `does not match ${pattern}` });
  return found;
}

function numberProblems(schema: JsonSchema, value: number, path: Path): ValidationIssue[] {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema as Record<string, number | undefined>;
  const found: ValidationIssue[] = [];
  if (minimum !== undefined && value < minimum) found.push({ path, message: `must be at least ${minimum}, received ${value}` });
  if (maximum !== undefined && value > maximum) found.push({ path, message: `must be at most ${maximum}, received ${value}` });
  if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) found.push({ path, message: `must be more than ${exclusiveMinimum}, received ${value}` });
  if (exclusiveMaximum !== undefined && value >= exclusiveMaximum) found.push({ path, message: `must be less than ${exclusiveMaximum}, received ${value}` });
  return found;
}

function arrayProblems(schema: JsonSchema, value: readonly unknown[], path: Path, root: JsonSchema): ValidationIssue[] {
  const { minItems, maxItems } = schema as { minItems?: number; maxItems?: number };
  const found: ValidationIssue[] = [];
  if (minItems !== undefined && value.length < minItems) found.push({ path, message: `needs at least ${minItems} item${minItems === 1 ? '' : 's'}` });
  if (maxItems !== undefined && value.length > maxItems) found.push({ path, message: `takes at most ${maxItems} items, received ${value.length}` });
  const items = schema['items'] as JsonSchema | undefined;
  if (items !== undefined) value.forEach((item, index) => found.push(...problems(items, item, [...path, index], root)));
  return found;
}

function objectProblems(schema: JsonSchema, value: Record<string, unknown>, path: Path, root: JsonSchema): ValidationIssue[] {
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const found: ValidationIssue[] = [];
  for (const name of (schema['required'] as string[] | undefined) ?? [])
    if (value[name] === undefined) found.push({ path: [...path, name], message: 'required' });
  const others = schema['additionalProperties'] as JsonSchema | boolean | undefined;
  for (const [name, inner] of Object.entries(value)) {
    if (inner === undefined) continue;
    const own = properties[name];
    if (own !== undefined) found.push(...problems(own, inner, [...path, name], root));
    else if (others === false) found.push({ path: [...path, name], message: `is not a field of it, which has ${listed(Object.keys(properties))}` });
    else if (others !== undefined && others !== true) found.push(...problems(others, inner, [...path, name], root));
  }
  return found;
}
