// The generator's reader (scripts/operations/read.ts) on small sample declarations: it reads the
// two shapes an operation is declared in, and refuses everything else that looks like one, naming
// the file and the line, so that `npm run generate` never leaves an operation out.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationDescriptor } from '../../scripts/operations/descriptor.js';
import { DeclarationError, declarationFiles, type Problem, readOperations } from '../../scripts/operations/read.js';
import { ROOT } from '../support/processes.js';

let dir: string;
beforeAll(() => {
  mkdirSync(join(ROOT, 'test/.tmp'), { recursive: true });
  dir = mkdtempSync(join(ROOT, 'test/.tmp/declarations-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Writes `files` (paths below a sample src/functions/) into a folder of their own and reads them.
 * `SDK` in a sample is the path of the real src/, for its imports.
 */
function read(name: string, files: Record<string, string>): OperationDescriptor[] {
  const src = join(dir, name, 'src');
  const functions = join(src, 'functions');
  for (const [path, text] of Object.entries(files)) {
    const file = join(functions, path);
    mkdirSync(dirname(file), { recursive: true });
    const sdk = relative(dirname(file), join(ROOT, 'src')).split('\\').join('/');
    writeFileSync(file, text.replaceAll('SDK/', `${sdk}/`));
  }
  return readOperations({ root: join(dir, name), src, functions }, declarationFiles(functions));
}

/** The problems `read` throws, by the file that has each. */
function problemsOf(name: string, files: Record<string, string>): Problem[] {
  try {
    read(name, files);
  } catch (error) {
    expect(error).toBeInstanceOf(DeclarationError);
    return [...(error as DeclarationError).problems];
  }
  throw new Error('read every sample without a problem');
}

const IMPORTS = `import type { DeliveryCore } from 'SDK/functions/delivery-core.js';
import { endpoint, type Operation } from 'SDK/functions/endpoint.js';
`;

describe('the reader, on declarations it can read', () => {
  let operations: OperationDescriptor[];
  beforeAll(() => {
    operations = read('good', {
      'deliveries/things.ts': `${IMPORTS}
/**
 * Reads one thing.
 * On two lines.
 *
 * @example
 * \`\`\`ts
 * await client.deliveries.thing('t-1');
 * \`\`\`
 * @chunk afterCreate
 */
export const getThing = /* @__PURE__ */ endpoint<[thingId: string], { id: string }>({
  name: 'deliveries.thing',
  method: 'GET',
  route: '/things/{thingId}',
});

/** Removes a thing. @chunk afterCreate */
export const removeThing = /* @__PURE__ */ endpoint<[thingId: string], void>({ name: 'deliveries.removeThing', method: 'DELETE', route: '/things/{thingId}' });

const once = (sent: unknown): boolean => sent !== null;

/** Makes a thing. @chunk create */
export const makeThing = /* @__PURE__ */ endpoint<[input: { size: number }, extra?: string], { id: string }>({
  name: 'deliveries.makeThing',
  method: 'POST',
  route: '/things',
  idempotent: once,
});

/** Searches. @chunk afterCreate */
export const searchThings = /* @__PURE__ */ endpoint<[query: { q: string }], string[]>({ name: 'deliveries.searchThings', method: 'POST', route: '/things/search', reads: true });

/**
 * Every thing of a list.
 *
 * @operation deliveries.things
 * @chunk afterCreate
 * @calls deliveries.thing, deliveries.searchThings
 */
export async function listThings(core: DeliveryCore, ids: readonly string[]): Promise<string[]> {
  return core === undefined ? [] : [...ids];
}

/**
 * Clears them all.
 *
 * @operation deliveries.clearThings
 * @chunk afterCreate
 * @calls DELETE /things
 */
export async function clearThings(core: DeliveryCore): Promise<void> {
  void core;
}

/** A piece of operations, not one of its own. @internal */
export function piece(core: DeliveryCore): boolean {
  return core !== undefined;
}

/** Takes no core: no operation. */
export function unrelated(count: number): number {
  return count;
}

export type ThingOperation = Operation<[], void>;
`,
      'lookup/places.ts': `${IMPORTS}
/** The places. @chunk lookup */
export const listPlaces = /* @__PURE__ */ endpoint<[], string[]>({ name: 'lookup.places', method: 'GET', route: '/places', public: true, cached: true });
`,
    });
  });
  const find = (fn: string) => operations.find((operation) => operation.fn === fn) as OperationDescriptor;

  it('finds every operation, the namespaces in the client order, the methods of each by name', () => {
    expect(operations.map((operation) => `${operation.namespace}.${operation.method} ${operation.fn}`)).toEqual([
      'lookup.places listPlaces',
      'deliveries.clearThings clearThings',
      'deliveries.makeThing makeThing',
      'deliveries.removeThing removeThing',
      'deliveries.searchThings searchThings',
      'deliveries.thing getThing',
      'deliveries.things listThings',
    ]);
  });

  it('reads an endpoint: route, parameters with their types, the options last, documentation and where it stands', () => {
    expect(find('getThing')).toMatchObject({
      kind: 'endpoint',
      route: 'GET /things/{thingId}',
      chunk: 'afterCreate',
      parameters: [
        { name: 'thingId', optional: false, type: 'string' },
        { name: 'options', optional: true, type: 'RequestOptions' },
      ],
      returns: 'APIPromise<{ id: string }>',
      summary: 'Reads one thing. On two lines.',
      module: 'functions/deliveries/things',
      location: { file: 'src/functions/deliveries/things.ts', line: 14 },
    });
    expect(find('getThing').doc).toContain("await client.deliveries.thing('t-1');");
    expect(find('getThing').doc).not.toContain('@chunk');
    expect(find('makeThing').parameters.map((parameter) => `${parameter.name}${parameter.optional ? '?' : ''}: ${parameter.type}`)).toEqual([
      'input: { size: number }',
      'extra?: string',
      'options?: RequestOptions',
    ]);
  });

  it('says whether each reads or changes, is safe to repeat, deletes', () => {
    const effects = (fn: string) => {
      const { reads, idempotent, destructive } = find(fn);
      return { reads, idempotent, destructive };
    };
    expect(effects('getThing')).toEqual({ reads: true, idempotent: true, destructive: false });
    expect(effects('removeThing')).toEqual({ reads: false, idempotent: false, destructive: true });
    expect(effects('makeThing')).toEqual({ reads: false, idempotent: 'by input', destructive: false });
    expect(effects('searchThings')).toEqual({ reads: true, idempotent: false, destructive: false });
    expect(effects('listThings')).toEqual({ reads: true, idempotent: true, destructive: false });
    expect(effects('clearThings')).toEqual({ reads: false, idempotent: false, destructive: true });
  });

  it('reads a helper: its parameters after the core, its return type, what it calls', () => {
    expect(find('listThings')).toMatchObject({
      kind: 'helper',
      calls: ['deliveries.thing', 'deliveries.searchThings'],
      parameters: [{ name: 'ids', optional: false, type: 'readonly string[]' }],
      returns: 'Promise<string[]>',
      summary: 'Every thing of a list.',
    });
    expect(find('listThings').route).toBeUndefined();
  });
});

describe('the reader, on the JSON form of what an operation takes and gives', () => {
  let operations: OperationDescriptor[];
  beforeAll(() => {
    operations = read('json', {
      'deliveries/parcels.ts': `${IMPORTS}import type { RequestOptions } from 'SDK/core/options.js';

/** A parcel as the service sends it. */
export interface Parcel {
  /** Its id. */
  id: string;
  /** Grams. */
  weight?: number | undefined;
  label: 'small' | 'large' | (string & {});
  [field: string]: unknown;
}

/** How a parcel is weighed. */
export interface WeighOptions extends RequestOptions {
  /** Grams the scale may be off by. */
  tolerance?: number | undefined;
  /** Told of each reading. */
  onProgress?: ((reading: number) => void) | undefined;
}

/** One parcel. @chunk afterCreate */
export const getParcel = /* @__PURE__ */ endpoint<[parcelId: string, view?: { fields: readonly ('id' | 'weight')[] }], Parcel | undefined>({
  name: 'deliveries.parcel',
  method: 'GET',
  route: '/parcels/{parcelId}',
});

/**
 * Weighs parcels, one after another.
 *
 * @operation deliveries.weighParcels
 * @chunk afterCreate
 * @calls deliveries.parcel
 */
export async function* weighParcels(core: DeliveryCore, ids: readonly string[], options?: WeighOptions): AsyncGenerator<Parcel, void, undefined> {
  void core;
  void ids;
  void options;
}
`,
    });
  });
  const find = (fn: string) => operations.find((operation) => operation.fn === fn) as OperationDescriptor;

  it('gives each parameter as JSON Schema, its other fields left open as the SDK leaves them, and the call options as nothing to give', () => {
    const [parcelId, view, options] = find('getParcel').parameters;
    expect(parcelId).toMatchObject({ schema: { type: 'string' }, checked: false });
    expect(view?.schema).toEqual({
      type: 'object',
      properties: { fields: { type: 'array', items: { type: 'string', enum: ['id', 'weight'] } } },
      required: ['fields'],
    });
    expect(options).toMatchObject({ name: 'options', schema: undefined, callbacks: [] });
  });

  it("gives the options' own fields only, with their documentation, closed to any other, and names the callbacks JSON cannot carry", () => {
    const options = find('weighParcels').parameters.at(-1);
    expect(options?.schema).toEqual({
      title: 'WeighOptions',
      type: 'object',
      properties: { tolerance: { description: 'Grams the scale may be off by.', type: 'number' } },
      additionalProperties: false,
    });
    expect(options?.callbacks).toContain('onProgress');
  });

  it('gives the result as JSON Schema that refuses nothing the SDK passes on as sent: only required fields typed', () => {
    expect(find('getParcel').result).toMatchObject({ many: false, optional: true });
    expect(find('getParcel').result.schema).toEqual({
      title: 'Parcel',
      type: 'object',
      properties: {
        id: { description: 'Its id.', type: 'string' },
        weight: { description: 'Grams.' },
        label: { type: 'string', examples: ['small', 'large'] },
      },
      required: ['id', 'label'],
    });
    expect(find('weighParcels').result).toMatchObject({ many: true, optional: false, schema: { title: 'Parcel' } });
  });

  it('refuses, when it has the rules, an endpoint that checks an input whose type has none: its tool would not state them', () => {
    const files = {
      'pickups/requests.ts': `${IMPORTS}import { schemaCheck } from 'SDK/schemas/check.js';

/** Books one. @chunk pickups */
export const bookThing = /* @__PURE__ */ endpoint<[input: { when: string }], { id: string }>({ name: 'pickups.book', method: 'POST', route: '/book', check: schemaCheck('checkPickup') });
`,
    };
    expect(() => read('unruled', files)).not.toThrow();
    const functions = join(dir, 'unruled', 'src', 'functions');
    let problems: readonly Problem[] = [];
    try {
      readOperations({ root: join(dir, 'unruled'), src: join(dir, 'unruled', 'src'), functions, rules: () => undefined }, declarationFiles(functions));
    } catch (error) {
      problems = (error as DeclarationError).problems;
    }
    expect(problems).toEqual([
      expect.objectContaining({
        file: 'src/functions/pickups/requests.ts',
        message: expect.stringMatching(/its input \(input: \{ when: string \}\) is checked, but no type of it has its rules in scripts\/operations\/rules\.ts/),
      }),
    ]);
  });
});

describe('the reader refuses, naming the file and the line, every declaration it cannot read', () => {
  /** Each malformed shape in a file of its own: [file, text, what the problem says]. */
  const MALFORMED: Array<[file: string, text: string, problem: RegExp]> = [
    [
      'deliveries/parenthesized.ts',
      `/** @chunk afterCreate */\nexport const parenthesized = (endpoint<[], void>({ name: 'deliveries.parenthesized', method: 'GET', route: '/p' }));`,
      /parenthesized cannot be read as an operation: .*no parentheses, cast or wrapper/,
    ],
    [
      'deliveries/impure.ts',
      `/** @chunk afterCreate */\nexport const impure = endpoint<[], void>({ name: 'deliveries.impure', method: 'GET', route: '/i' });`,
      /impure: mark the call pure, `\/\* @__PURE__ \*\/ endpoint<\.\.\.>\(\.\.\.\)`, so that a page that does not call it leaves it out/,
    ],
    [
      'deliveries/cast.ts',
      `/** @chunk afterCreate */\nexport const cast = /* @__PURE__ */ endpoint<[], void>({ name: 'deliveries.cast', method: 'GET', route: '/c' }) as unknown as (core: DeliveryCore) => void;`,
      /cast cannot be read as an operation/,
    ],
    [
      'deliveries/wrapped.ts',
      `const logged = <A extends unknown[], T>(operation: Operation<A, T>): Operation<A, T> => operation;\n/** @chunk afterCreate */\nexport const wrapped = logged(endpoint<[], void>({ name: 'deliveries.wrapped', method: 'GET', route: '/w' }));`,
      /wrapped cannot be read as an operation/,
    ],
    [
      'deliveries/hidden.ts',
      `const make = (): Operation<[], void> => endpoint<[], void>({ name: 'deliveries.hidden', method: 'GET', route: '/h' });\n/** @chunk afterCreate */\nexport const hidden = make();`,
      /hidden cannot be read as an operation/,
    ],
    [
      'deliveries/untyped.ts',
      `/** @chunk afterCreate */\nexport const untyped = /* @__PURE__ */ endpoint({ name: 'deliveries.untyped', method: 'GET', route: '/u' });`,
      /untyped: endpoint<\[args\], Result, Options\?> needs its type arguments/,
    ],
    [
      'deliveries/unnamed.ts',
      `/** @chunk afterCreate */\nexport const unnamed = /* @__PURE__ */ endpoint<[string], void>({ name: 'deliveries.unnamed', method: 'GET', route: '/u/{id}' });`,
      /unnamed: name each argument/,
    ],
    [
      'deliveries/variable.ts',
      `const declaration = { name: 'deliveries.variable', method: 'GET', route: '/v' } as const;\n/** @chunk afterCreate */\nexport const variable = /* @__PURE__ */ endpoint<[], void>(declaration);`,
      /variable: endpoint\(\) takes its declaration written out as one object literal/,
    ],
    [
      'deliveries/spread.ts',
      `const common = { method: 'GET', route: '/s' } as const;\n/** @chunk afterCreate */\nexport const spread = /* @__PURE__ */ endpoint<[], void>({ ...common, name: 'deliveries.spread' });`,
      /spread: a spread or a computed name hides what the declaration says/,
    ],
    [
      'deliveries/constant.ts',
      `const NAME = 'deliveries.constant';\n/** @chunk afterCreate */\nexport const constant = /* @__PURE__ */ endpoint<[], void>({ name: NAME, method: 'GET', route: '/k' });`,
      /constant: `name` .* are written as string literals, found name: NAME, method: 'GET', route: '\/k'/,
    ],
    [
      'deliveries/reads.ts',
      `const READS = true;\n/** @chunk afterCreate */\nexport const readsSomething = /* @__PURE__ */ endpoint<[], void>({ name: 'deliveries.readsSomething', method: 'POST', route: '/r', reads: READS });`,
      /readsSomething: `reads` is written as true or false/,
    ],
    [
      'deliveries/nowhere.ts',
      `/** @chunk afterCreate */\nexport const nowhere = /* @__PURE__ */ endpoint<[], void>({ name: 'nowhere.thing', method: 'GET', route: '/n' });`,
      /'nowhere.thing' is not namespace.method with a namespace of src\/functions\/namespaces.ts/,
    ],
    [
      'deliveries/elsewhere.ts',
      `/** @chunk lookup */\nexport const elsewhere = /* @__PURE__ */ endpoint<[], void>({ name: 'lookup.elsewhere', method: 'GET', route: '/e' });`,
      /'lookup.elsewhere' is an operation of lookup: declare it under src\/functions\/lookup\//,
    ],
    [
      'deliveries/unchunked.ts',
      `/** No chunk. */\nexport const unchunked = /* @__PURE__ */ endpoint<[], void>({ name: 'deliveries.unchunked', method: 'GET', route: '/u' });`,
      /@chunk is missing/,
    ],
    [
      'deliveries/misnamed-chunk.ts',
      `/** @chunk everything */\nexport const misnamedChunk = /* @__PURE__ */ endpoint<[], void>({ name: 'deliveries.misnamedChunk', method: 'GET', route: '/m' });`,
      /@chunk 'everything' names none of the chunks/,
    ],
    [
      'deliveries/untagged.ts',
      `/** Reads the things of a core, but says nothing of being an operation. */\nexport async function untagged(core: DeliveryCore): Promise<void> {\n  void core;\n}`,
      /untagged takes the core first but has no @operation/,
    ],
    [
      'deliveries/arrow.ts',
      `/**\n * @operation deliveries.arrow\n * @chunk afterCreate\n */\nexport const arrow = async (core: DeliveryCore): Promise<void> => void core;`,
      /@operation tags a function declaration/,
    ],
    [
      'deliveries/bare-arrow.ts',
      `export const bareArrow = (core: DeliveryCore): number => (core === undefined ? 0 : 1);`,
      /bareArrow cannot be read as an operation/,
    ],
    [
      'deliveries/unreturned.ts',
      `/**\n * @operation deliveries.unreturned\n * @chunk afterCreate\n */\nexport async function unreturned(core: DeliveryCore) {\n  void core;\n}`,
      /@operation deliveries.unreturned: a helper is `export function name\(core: DeliveryCore, ...\): Returns`, its return type written/,
    ],
    [
      'deliveries/synchronous.ts',
      `/**\n * @operation deliveries.synchronous\n * @chunk afterCreate\n */\nexport function synchronous(core: DeliveryCore): number {\n  return core === undefined ? 0 : 1;\n}`,
      /a helper loaded on first use returns an APIPromise, a Promise or an AsyncGenerator, not number/,
    ],
    [
      'deliveries/calls-nothing-known.ts',
      `/**\n * @operation deliveries.callsUnknown\n * @chunk afterCreate\n * @calls deliveries.nothing\n */\nexport async function callsUnknown(core: DeliveryCore): Promise<void> {\n  void core;\n}`,
      /@calls deliveries.nothing: names no endpoint/,
    ],
    [
      'deliveries/twice.ts',
      `/** @chunk afterCreate */\nexport const twice = /* @__PURE__ */ endpoint<[], void>({ name: 'deliveries.get', method: 'GET', route: '/t' });\n/** @chunk afterCreate */\nexport const again = /* @__PURE__ */ endpoint<[], void>({ name: 'deliveries.get', method: 'GET', route: '/t2' });`,
      /deliveries.get is declared twice: first at src\/functions\/deliveries\/twice.ts:4/,
    ],
    [
      'stray.ts',
      `/** @chunk afterCreate */\nexport const stray = /* @__PURE__ */ endpoint<[], void>({ name: 'deliveries.stray', method: 'GET', route: '/s' });`,
      /stray: operations are declared under src\/functions\/<namespace>\//,
    ],
  ];

  let problems: Problem[];
  beforeAll(() => {
    problems = problemsOf('malformed', Object.fromEntries(MALFORMED.map(([file, text]) => [file, `${IMPORTS}${text}\n`])));
  });

  it.each(MALFORMED)('%s', (file, text, problem) => {
    const own = problems.filter((found) => found.file === `src/functions/${file}`);
    expect(own.map((found) => found.message)).toEqual([expect.stringMatching(problem)]);
    // The line of the declaration the problem is about: the last `export` of the sample.
    const lines = `${IMPORTS}${text}`.split('\n');
    const declared = lines.map((line) => line.startsWith('export ')).lastIndexOf(true) + 1;
    expect(own[0]?.line).toBe(declared);
  });

  it('says all of them at once, one line each: file:line: what is wrong', () => {
    expect(problems).toHaveLength(MALFORMED.length);
    let thrown: unknown;
    try {
      read('malformed', {});
    } catch (error) {
      thrown = error;
    }
    const lines = (thrown as Error).message.split('\n');
    expect(lines[0]).toBe(`${MALFORMED.length} declarations of src/functions cannot be read:`);
    expect(lines.slice(1).every((line) => /^src\/functions\/[\w/-]+\.ts:\d+: /.test(line))).toBe(true);
  });
});
