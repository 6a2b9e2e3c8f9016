/** Longest piece of a string emitted at once, so that one huge string value is sliced too. */
const STRING_SLICE = 16 * 1024;

interface Frame {
  readonly node: object;
  /** `null` for an array; an object's own enumerable keys otherwise. */
  readonly keys: readonly string[] | null;
  next: number;
  wroteMember: boolean;
}

/**
 * What `JSON.stringify(value)` returns, in pieces and without recursion, for a body a framework
 * already parsed: a reader that stops past its byte limit stops the work too, so neither the
 * depth (10 KB of `[` is 10,000 levels, past the stack's reach for `JSON.stringify`) nor the size
 * of what a body parser built costs more than the limit. Like `JSON.stringify`: `toJSON` is called,
 * `undefined`, functions and symbols are left out of objects and are `null` in arrays, a cycle or
 * a BigInt throws a `TypeError`.
 */
export function* jsonPieces(root: unknown): Generator<string, void, undefined> {
  const stack: Frame[] = [];
  const ancestors = new Set<object>();
  let value = jsonValue(root, '');
  if (!representable(value)) value = null;
  for (;;) {
    if (typeof value === 'object' && value !== null) {
      if (ancestors.has(value)) throw new TypeError('Converting circular structure to JSON');
      ancestors.add(value);
      const isArray = Array.isArray(value);
      stack.push({ node: value, keys: isArray ? null : Object.keys(value), next: 0, wroteMember: false });
      yield isArray ? '[' : '{';
    } else if (typeof value === 'string') {
      yield* jsonString(value);
    } else if (typeof value === 'bigint') {
      throw new TypeError('Do not know how to serialize a BigInt');
    } else {
      yield JSON.stringify(value);
    }
    // Climb until a container has a member left; that member is the next value.
    for (;;) {
      const top = stack.at(-1);
      if (top === undefined) return;
      const member = yield* nextMember(top);
      if (member.found) {
        value = member.value;
        break;
      }
      yield top.keys === null ? ']' : '}';
      ancestors.delete(top.node);
      stack.pop();
    }
  }
}

function* nextMember(frame: Frame): Generator<string, { found: true; value: unknown } | { found: false }, undefined> {
  if (frame.keys === null) {
    const array = frame.node as readonly unknown[];
    if (frame.next >= array.length) return { found: false };
    const index = frame.next++;
    if (index > 0) yield ',';
    const value = jsonValue(array[index], String(index));
    return { found: true, value: representable(value) ? value : null };
  }
  while (frame.next < frame.keys.length) {
    const key = frame.keys[frame.next++] as string;
    const value = jsonValue((frame.node as Readonly<Record<string, unknown>>)[key], key);
    if (!representable(value)) continue;
    if (frame.wroteMember) yield ',';
    frame.wroteMember = true;
    yield* jsonString(key);
    yield ':';
    return { found: true, value };
  }
  return { found: false };
}

function* jsonString(text: string): Generator<string, void, undefined> {
  if (text.length <= STRING_SLICE) {
    yield JSON.stringify(text);
    return;
  }
  // A surrogate pair cut in two comes out as two escapes, which JSON.parse joins again.
  yield '"';
  for (let i = 0; i < text.length; i += STRING_SLICE) yield JSON.stringify(text.slice(i, i + STRING_SLICE)).slice(1, -1);
  yield '"';
}

function jsonValue(value: unknown, key: string): unknown {
  let out = value;
  if ((typeof out === 'object' && out !== null) || typeof out === 'bigint') {
    const toJSON = (out as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') out = toJSON.call(out, key) as unknown;
  }
  if (out instanceof Number || out instanceof String || out instanceof Boolean) out = out.valueOf();
  return out;
}

function representable(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}
