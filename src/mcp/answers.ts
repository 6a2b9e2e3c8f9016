/**
 * What a tool answers: its result as JSON (`structuredContent`, files as resources) with a line a
 * person can read, or its error as a result marked `isError`, with the error's class, errorCode,
 * message, hint and `mayExist`, and the fields it names by the tool's own argument names.
 */
import { BulkCreationError, DeliveryError, formatPath, PartialResultError, type ValidationIssue } from '../errors/index.js';
import { isRecord } from '../internal/guards.js';
import type { FileShelf } from './files.js';
import type { ToolDeclaration } from './tool.js';

/** A tool's answer, as MCP's `tools/call` result has it. */
export interface ToolAnswer {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string } | { type: 'resource_link'; uri: string; name: string; mimeType: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Turns a result into JSON: bytes into files kept on the shelf, errors into what their `toJSON` says, nothing of a function. */
export class JsonWriter {
  /** The files met, for the answer's resource links. */
  readonly files: Array<{ uri: string; mimeType: string; path?: string }> = [];

  constructor(
    private readonly shelf: FileShelf,
    private readonly stem: string,
  ) {}

  async write(value: unknown, depth = 0): Promise<unknown> {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') return Number.isFinite(value) ? value : null;
    if (typeof value === 'bigint') return String(value);
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
    if (depth > 32) return null;
    if (value instanceof Uint8Array) {
      const file = await this.shelf.keep(value, this.stem);
      this.files.push(file);
      return file;
    }
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
    if (value instanceof Error) return this.write(errorJson(value), depth + 1);
    if (Array.isArray(value)) return Promise.all(value.map(async (item) => (await this.write(item, depth + 1)) ?? null));
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value as object)) {
      const written = await this.write(inner, depth + 1);
      if (written !== undefined) out[key] = written;
    }
    return out;
  }
}

/**
 * An error as a tool reports it: its class (`error`), `errorCode`, `message`, `hint`, `mayExist`,
 * `issues` with their paths (`named` says each by the tool's arguments), and what it carries of
 * the call (a bulk upload's `result`, the `partial` of a call that failed part-way). No headers
 * and no body of the answer: nothing of the key, nothing of the request sent.
 */
export function errorJson(error: Error, named: (path: readonly (string | number)[]) => readonly (string | number)[] = (path) => path): Record<string, unknown> {
  const own = error instanceof DeliveryError ? error.toJSON() : { name: error.name, message: error.message };
  const { name, message, headers: _, body: __, cause: ___, issues, ...rest } = own as Record<string, unknown>;
  const { cause } = error;
  const out: Record<string, unknown> = { error: name, message, ...rest };
  if (Array.isArray(issues) && issues.length > 0) out['issues'] = issues.map((issue: ValidationIssue) => ({ ...issue, path: formatPath(named(issue.path)) }));
  if (error instanceof BulkCreationError) out['result'] = error.result;
  if (error instanceof PartialResultError) out['partial'] = error.partial;
  if (cause instanceof Error && !(error instanceof BulkCreationError)) {
    const { errorCode, mayExist } = cause as Partial<DeliveryError>;
    out['cause'] = {
      error: cause.name,
      message: cause.message,
      ...(errorCode === undefined ? {} : { errorCode }),
      ...(mayExist === undefined ? {} : { mayExist }),
    };
  }
  return out;
}

/**
 * How the paths of a refusal's issues read by the tool's arguments: the SDK checks an order and
 * names `cod`; the assistant passed `order`, so the field is `order.cod`. A path that starts with
 * an argument's name (`trackingNumber`) already says it.
 */
export function byArguments(tool: ToolDeclaration): (path: readonly (string | number)[]) => readonly (string | number)[] {
  const inputs = tool.parameters.filter((name) => name !== 'options');
  const subject = tool.checked.length === 1 ? tool.checked[0] : inputs.length === 1 ? inputs[0] : undefined;
  const named = Object.keys((tool.inputSchema['properties'] as object | undefined) ?? {});
  return (path) => (subject === undefined || named.includes(String(path[0])) ? path : [subject, ...path]);
}

/** Whatever was thrown, as an `Error`: another value by what `String` says of it, when it can say. */
export function asError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  try {
    return new Error(String(thrown));
  } catch {
    return new Error('a value that is not an Error');
  }
}

/**
 * A refusal or a failure, as the result the tool named `toolName` gives: `isError`, a line to
 * read, and the error as JSON (a file it carries kept under the tool's name). `named` says its
 * fields by the tool's arguments (the paths of an argument check already do).
 */
export async function errorAnswer(
  error: unknown,
  toolName: string,
  shelf: FileShelf,
  named?: (path: readonly (string | number)[]) => readonly (string | number)[],
): Promise<ToolAnswer> {
  const thrown = asError(error);
  const writer = new JsonWriter(shelf, toolName);
  const json = (await writer.write(errorJson(thrown, named))) as Record<string, unknown>;
  const code = typeof json['errorCode'] === 'number' ? ` ${json['errorCode']}` : '';
  const fields = Array.isArray(json['issues'])
    ? (json['issues'] as Array<{ path: string; message: string }>).slice(0, 10).map((issue) => `${issue.path}: ${issue.message}`)
    : [];
  const said = fields.length > 0 ? fields.join('; ') : String(json['message']);
  const maybe = json['mayExist'] === true ? ' It may have happened all the same: look it up before trying again.' : '';
  const hint = typeof json['hint'] === 'string' ? ` Hint: ${json['hint']}` : '';
  return {
    isError: true,
    content: [{ type: 'text', text: `${thrown.name}${code}: ${said}.${maybe}${hint}` }, { type: 'text', text: JSON.stringify(json) }, ...links(writer)],
  };
}

const links = (writer: JsonWriter): ToolAnswer['content'] =>
  writer.files.map((file) => ({ type: 'resource_link', uri: file.uri, name: file.uri.slice(file.uri.lastIndexOf('/') + 1), mimeType: file.mimeType }));

/** A result as the tool gives it: `structuredContent` as its output schema says, a line to read, a link per file. */
export async function resultAnswer(structured: Record<string, unknown>, writer: JsonWriter, tool: ToolDeclaration): Promise<ToolAnswer> {
  return { structuredContent: structured, content: [{ type: 'text', text: summary(structured, tool) }, ...links(writer)] };
}

/** Fields that say which thing a record is, first. */
const NAMING = ['trackingNumber', 'name', 'businessReference', '_id', 'state', 'currentState', 'type', 'cod', 'total', 'count'];

/** A short line saying what came back: the list's size and first items, or the main fields of a record. */
export function summary(structured: Record<string, unknown>, tool: ToolDeclaration): string {
  if (tool.answer === 'none') return `Done: ${tool.operation}.`;
  if (tool.answer === 'list' || tool.answer === 'many') {
    const items = structured['items'] as unknown[];
    const more = typeof structured['nextCursor'] === 'string' ? '; more with nextCursor' : '';
    const first = items.slice(0, 5).map((item) => label(item, 2));
    return `${items.length} item${items.length === 1 ? '' : 's'}${more}${first.length > 0 ? `: ${first.join(' | ')}${items.length > first.length ? ' | ...' : ''}` : ''}.`;
  }
  const value = tool.answer === 'wrapped' ? structured['result'] : structured;
  if (value === undefined) return 'None found.';
  return `${label(value, 6)}.`;
}

/** A value in a few words: a record by its naming fields, then its other plain fields, at most `fields` of them. */
function label(value: unknown, fields: number): string {
  if (!isRecord(value)) return Array.isArray(value) ? `${value.length} items` : String(value);
  if (typeof value['uri'] === 'string' && typeof value['mimeType'] === 'string') return `a file, ${value['path'] ?? value['uri']}`;
  const keys = [...NAMING.filter((key) => key in value), ...Object.keys(value).filter((key) => !NAMING.includes(key))];
  const parts: string[] = [];
  for (const key of keys) {
    if (parts.length >= fields) break;
    const text = plain(value[key]);
    if (text !== undefined) parts.push(`${key} ${text}`);
  }
  return parts.length > 0 ? parts.join(', ') : `${Object.keys(value).length} fields`;
}

/** A field in words: a scalar as it is, `{ code, value }` as `24 (Received at warehouse)`, a list by its length; nothing for other objects. */
function plain(value: unknown): string | undefined {
  if (typeof value === 'string') return value.length > 60 ? `${value.slice(0, 57)}...` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.length}]`;
  if (isRecord(value) && ('code' in value || 'value' in value)) {
    const { code, value: words } = value;
    return code !== undefined && words !== undefined ? `${String(code)} (${String(words)})` : String(code ?? words);
  }
  return undefined;
}
