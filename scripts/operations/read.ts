/**
 * The reader: every operation declared in src/functions/, as a list of descriptors
 * (descriptor.ts), from one TypeScript program. It reads two shapes, and refuses, naming the file
 * and the line, anything that looks like an operation but is not one of them, so that no operation
 * is ever left out of what is written from the list:
 *
 * - an endpoint: `export const name = endpoint<[args], Result, Options?>({ name, method, route, ... })`,
 *   the call marked pure (`@__PURE__`), the object written out (no spread), `name`, `method` and
 *   `route` as string literals;
 * - a helper: `export function name(core: DeliveryCore, ...): Returns`, tagged `@operation
 *   namespace.method`, with `@calls` for what it calls.
 *
 * Each names its chunk with `@chunk`, and stands in its namespace's folder,
 * src/functions/<namespace>/. An exported function of those folders that takes the core first is
 * an operation, unless tagged `@internal` (a piece of operations, not one of its own).
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';
import { CHUNKS, type ChunkName, NAMESPACES, type NamespaceName } from '../../src/functions/namespaces.js';
import type { JsonSchema, Location, OperationDescriptor, Parameter, Result } from './descriptor.js';
import { jsonSchemaOf } from './json-schema.js';

/** Where the reader looks. */
export interface ReadPlaces {
  /** The repository: a problem names its file relative to it. */
  readonly root: string;
  /** src/: a descriptor's `module` and `types` are relative to it. */
  readonly src: string;
  /** The declarations' folder, src/functions/: its subfolders are the namespaces'. */
  readonly functions: string;
  /**
   * The rules of the input types the SDK checks, as JSON Schema, by type name (rules.ts). Given,
   * an endpoint that checks its input must have it among them: its tool states its rules.
   */
  readonly rules?: ((typeName: string) => JsonSchema | undefined) | undefined;
}

/** Something the reader cannot read, where it stands. */
export interface Problem extends Location {
  readonly message: string;
}

/** What `readOperations` throws: every problem found, one per line (`file:line: message`). */
export class DeclarationError extends Error {
  constructor(readonly problems: readonly Problem[]) {
    super(
      `${problems.length} declaration${problems.length === 1 ? '' : 's'} of src/functions cannot be read:\n${problems.map((problem) => `${problem.file}:${problem.line}: ${problem.message}`).join('\n')}`,
    );
    this.name = 'DeclarationError';
  }
}

/** How the reader's one program reads the sources (a host of one's own, for sources not on disk, takes the same). */
export const READ_OPTIONS: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  noEmit: true,
};

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ENDPOINT_SHAPE = 'export const name = /* @__PURE__ */ endpoint<[args], Result, Options?>({ name, method, route, ... })';

/** The mark that lets a bundler drop an unused declaration. */
const PURE = '/* @__PURE__ */';
/** The tags that declare an operation: read here, left out of the copies of its documentation. */
const DECLARING_TAGS = /\n \* @(?:operation|chunk|calls)\b[^\n]*/g;

const kebab = (name: string): string => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The TypeScript files of `dir` and its subfolders, but the generated entry (functions/index.ts). */
export function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !(entry.name === 'index.ts' && entry.parentPath === dir))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** A JSDoc tag's text (`@chunk afterCreate` gives `afterCreate`); `''` for a tag without text. */
function tagText(node: ts.Node, name: string): string | undefined {
  const tag = ts.getJSDocTags(node).find((candidate) => candidate.tagName.text === name);
  if (tag === undefined) return undefined;
  const comment = tag.comment;
  return typeof comment === 'string' ? comment.trim() : comment === undefined ? '' : (ts.getTextOfJSDocComment(comment)?.trim() ?? '');
}

/** The first paragraph of a JSDoc block, as one line of text. */
function summaryOf(doc: string): string {
  const lines = doc
    .replace(/^\s*\/\*\*|\*\/\s*$/g, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''));
  const paragraph: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') {
      if (paragraph.length > 0) break;
      continue;
    }
    if (line.trimStart().startsWith('@')) break;
    paragraph.push(line.trim());
  }
  return paragraph.join(' ');
}

/**
 * Every operation declared under `places.functions`, the namespaces in the client's order and the
 * methods of each alphabetically. Throws a {@link DeclarationError} listing every declaration it
 * cannot read: it never leaves one out.
 */
export function readOperations(places: ReadPlaces, files = declarationFiles(places.functions), host?: ts.CompilerHost): OperationDescriptor[] {
  const program = ts.createProgram(files, READ_OPTIONS, host);
  const checker = program.getTypeChecker();
  const problems: Problem[] = [];
  const found: Array<Omit<OperationDescriptor, 'reads' | 'idempotent' | 'destructive'> & Partial<OperationDescriptor>> = [];
  const moduleOf = (file: string): string => relative(places.src, file).split(sep).join('/').replace(/\.ts$/, '');
  // The call options every method takes (src/core/options.ts): a tool's options are what an operation adds to them.
  const isCallOption = (property: ts.Symbol): boolean =>
    property.declarations?.some((declaration) => declaration.getSourceFile().fileName.split(sep).join('/').endsWith('/src/core/options.ts')) === true;

  /** A parameter's JSON form: the options' own properties, any other parameter whole. */
  const jsonOf = (name: string, type: ts.Type, written: ts.TypeNode | undefined): Pick<Parameter, 'schema' | 'checked' | 'callbacks'> => {
    const options = name === 'options';
    const callbacks = options
      ? checker
          .getPropertiesOfType(checker.getNonNullableType(type))
          .filter((property) => checker.getNonNullableType(checker.getTypeOfSymbol(property)).getCallSignatures().length > 0)
          .map((property) => property.name)
      : [];
    const writtenAs = written !== undefined && ts.isTypeReferenceNode(written) ? written.typeName.getText() : undefined;
    const { schema, checked } = jsonSchemaOf(checker, type, {
      direction: 'input',
      rules: places.rules,
      leaveOut: options ? isCallOption : undefined,
      writtenAs,
    });
    if (!options || schema === undefined) return { schema, checked, callbacks };
    if (Object.keys((schema['properties'] as object | undefined) ?? {}).length === 0) return { schema: undefined, checked, callbacks };
    // The options are closed: the call options left out (`apiKey`, `headers`, `signal`) are the server's to give, never a caller's.
    return { schema: { ...schema, additionalProperties: false }, checked, callbacks };
  };

  /** What a call resolves with or yields: `APIPromise<T>`, `Promise<T>`, `AsyncGenerator<T>`, or a value at once. */
  const resultOf = (type: ts.Type): Result => {
    const name = type.getSymbol()?.name ?? '';
    const many = ['AsyncGenerator', 'AsyncIterable', 'AsyncIterableIterator'].includes(name);
    const inner = many || name === 'Promise' || name === 'APIPromise' ? checker.getTypeArguments(type as ts.TypeReference)[0] : type;
    const converted = inner === undefined ? undefined : jsonSchemaOf(checker, inner, { direction: 'output' });
    return { schema: converted?.schema, many, optional: converted?.undefinable ?? true };
  };

  for (const file of files) {
    const source = program.getSourceFile(file);
    if (source === undefined) continue;
    const where = (node: ts.Node): Location => ({
      file: relative(places.root, file).split(sep).join('/'),
      line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
    });
    const refuse = (node: ts.Node, message: string): void => {
      problems.push({ ...where(node), message });
    };
    // The namespace whose folder holds the file: src/functions/<namespace>/...; none at the top.
    const folder = relative(places.functions, dirname(file)).split(sep)[0] ?? '';
    const folderNamespace = (Object.keys(NAMESPACES) as NamespaceName[]).find((namespace) => kebab(namespace) === folder);

    /** `name` as `namespace.method`, checked: known namespace, in its folder, one chunk. */
    const operationName = (node: ts.Node, name: string): { namespace: NamespaceName; method: string; chunk: ChunkName } | undefined => {
      const [namespace, method, ...rest] = name.split('.');
      if (namespace === undefined || !(namespace in NAMESPACES) || method === undefined || !/^[a-z]\w*$/i.test(method) || rest.length > 0) {
        refuse(node, `'${name}' is not namespace.method with a namespace of src/functions/namespaces.ts (${Object.keys(NAMESPACES).join(', ')})`);
        return undefined;
      }
      if (namespace !== folderNamespace) {
        refuse(node, `'${name}' is an operation of ${namespace}: declare it under src/functions/${kebab(namespace)}/`);
        return undefined;
      }
      const chunk = tagText(node, 'chunk');
      if (chunk === undefined || !(chunk in CHUNKS)) {
        refuse(
          node,
          `@chunk ${chunk === undefined ? 'is missing' : `'${chunk}' names none of the chunks`} (src/functions/namespaces.ts: ${Object.keys(CHUNKS).join(', ')})`,
        );
        return undefined;
      }
      return { namespace: namespace as NamespaceName, method, chunk: chunk as ChunkName };
    };

    /** The type names a type node uses, by the module of src/ that declares each (lib and type parameters left out). */
    const typesOf = (node: ts.Node, types: Map<string, string>): void => {
      const visit = (child: ts.Node): void => {
        if (ts.isTypeReferenceNode(child) && ts.isIdentifier(child.typeName)) {
          let symbol = checker.getSymbolAtLocation(child.typeName);
          if (symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
          const declaration = symbol?.declarations?.[0];
          if (declaration !== undefined && !ts.isTypeParameterDeclaration(declaration) && declaration.getSourceFile().fileName.startsWith(places.src))
            types.set(child.typeName.text, moduleOf(declaration.getSourceFile().fileName));
        }
        ts.forEachChild(child, visit);
      };
      visit(node);
    };

    const docOf = (node: ts.Node): string => {
      const jsDoc = ts.getJSDocCommentsAndTags(node).find(ts.isJSDoc);
      return jsDoc === undefined
        ? ''
        : jsDoc
            .getText(source)
            .replace(DECLARING_TAGS, '')
            .replace(/\n \*\n \*\n/g, '\n *\n')
            .replace(/\n \*\n \*\//, '\n */');
    };

    for (const statement of source.statements) {
      const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      if (!exported) continue;
      if (ts.isFunctionDeclaration(statement)) {
        const helper = readHelper(statement);
        if (helper !== undefined) found.push(helper);
      } else if (ts.isVariableStatement(statement)) {
        if (tagText(statement, 'operation') !== undefined) {
          refuse(statement, '@operation tags a function declaration: `export function name(core: DeliveryCore, ...): Returns`');
          continue;
        }
        for (const variable of statement.declarationList.declarations) {
          const endpoint = readVariable(statement, variable);
          if (endpoint !== undefined) found.push(endpoint);
        }
      }
    }

    function readHelper(statement: ts.FunctionDeclaration): (typeof found)[number] | undefined {
      const tagged = tagText(statement, 'operation');
      const fn = statement.name?.text ?? 'default';
      if (tagged === undefined) {
        if (folderNamespace !== undefined && takesCoreFirst(statement.parameters[0]) && tagText(statement, 'internal') === undefined)
          refuse(
            statement,
            `${fn} takes the core first but has no @operation: tag it \`@operation namespace.method\` (with @chunk), or \`@internal\` when it is a piece of operations`,
          );
        return undefined;
      }
      if (folderNamespace === undefined) {
        refuse(statement, `@operation ${tagged}: operations are declared under src/functions/<namespace>/`);
        return undefined;
      }
      const name = operationName(statement, tagged);
      if (name === undefined) return undefined;
      if (statement.name === undefined || statement.type === undefined || !takesCoreFirst(statement.parameters[0])) {
        refuse(statement, `@operation ${tagged}: a helper is \`export function name(core: DeliveryCore, ...): Returns\`, its return type written`);
        return undefined;
      }
      const types = new Map<string, string>();
      const parameters: Parameter[] = statement.parameters.slice(1).map((parameter) => {
        if (parameter.type !== undefined) typesOf(parameter.type, types);
        const name = parameter.name.getText(source);
        return {
          name,
          optional: parameter.questionToken !== undefined || parameter.initializer !== undefined,
          type: parameter.type?.getText(source) ?? 'unknown',
          ...jsonOf(name, checker.getTypeAtLocation(parameter), parameter.type),
        };
      });
      typesOf(statement.type, types);
      const returns = statement.type.getText(source);
      if (name.chunk !== 'core' && !/^(?:APIPromise|Promise|AsyncGenerator|AsyncIterable)</.test(returns)) {
        refuse(statement.type, `@operation ${tagged}: a helper loaded on first use returns an APIPromise, a Promise or an AsyncGenerator, not ${returns}`);
        return undefined;
      }
      const calls = tagText(statement, 'calls');
      const doc = docOf(statement);
      return {
        ...name,
        fn,
        kind: 'helper',
        calls: calls === undefined || calls === '' ? [] : calls.split(',').map((called) => called.trim()),
        parameters,
        returns,
        result: resultOf(checker.getTypeFromTypeNode(statement.type)),
        doc,
        summary: summaryOf(doc),
        module: moduleOf(file),
        types,
        location: where(statement),
      };
    }

    function readVariable(statement: ts.VariableStatement, variable: ts.VariableDeclaration): (typeof found)[number] | undefined {
      const init = variable.initializer;
      const fn = variable.name.getText(source);
      if (init === undefined) return undefined;
      if (ts.isCallExpression(init) && isEndpoint(init.expression)) return readEndpoint(statement, variable, init);
      // Anything else that holds an endpoint, or is a function taking the core, is an operation the generator would miss.
      if (
        holdsEndpointCall(init) ||
        (folderNamespace !== undefined &&
          checker
            .getTypeAtLocation(variable.name)
            .getCallSignatures()
            .some((signature) => takesCoreFirst(signature.getDeclaration()?.parameters[0])))
      )
        refuse(
          variable,
          `${fn} cannot be read as an operation: an endpoint is written \`${ENDPOINT_SHAPE}\` as it is (no parentheses, cast or wrapper around the call), a helper as an \`export function\` tagged @operation`,
        );
      return undefined;
    }

    function readEndpoint(statement: ts.VariableStatement, variable: ts.VariableDeclaration, call: ts.CallExpression): (typeof found)[number] | undefined {
      const fn = variable.name.getText(source);
      if (folderNamespace === undefined) {
        refuse(variable, `${fn}: operations are declared under src/functions/<namespace>/`);
        return undefined;
      }
      const [declared, ...others] = call.arguments;
      if (declared === undefined || !ts.isObjectLiteralExpression(declared) || others.length > 0) {
        refuse(call, `${fn}: endpoint() takes its declaration written out as one object literal: \`${ENDPOINT_SHAPE}\``);
        return undefined;
      }
      const properties = new Map<string, ts.Expression | undefined>();
      for (const property of declared.properties) {
        const key = property.name !== undefined && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) ? property.name.text : undefined;
        if (key === undefined || ts.isSpreadAssignment(property)) {
          refuse(property, `${fn}: a spread or a computed name hides what the declaration says: write each property out`);
          return undefined;
        }
        properties.set(key, ts.isPropertyAssignment(property) ? property.initializer : ts.isShorthandPropertyAssignment(property) ? property.name : undefined);
      }
      const literal = (key: string): string | undefined => {
        const value = properties.get(key);
        return value !== undefined && ts.isStringLiteralLike(value) ? value.text : undefined;
      };
      const name = literal('name');
      const method = literal('method');
      const route = literal('route');
      if (name === undefined || method === undefined || !HTTP_METHODS.includes(method) || route === undefined || !route.startsWith('/')) {
        refuse(
          declared,
          `${fn}: \`name\` ('namespace.method'), \`method\` (${HTTP_METHODS.join(', ')}) and \`route\` ('/path') are written as string literals, found ${['name', 'method', 'route'].map((key) => `${key}: ${properties.get(key)?.getText(source) ?? 'none'}`).join(', ')}`,
        );
        return undefined;
      }
      const operation = operationName(statement, name);
      if (operation === undefined) return undefined;
      const flag = (key: string): boolean | 'by input' | undefined => {
        const value = properties.get(key);
        if (value === undefined) return undefined;
        if (value.kind === ts.SyntaxKind.TrueKeyword || value.kind === ts.SyntaxKind.FalseKeyword) return value.kind === ts.SyntaxKind.TrueKeyword;
        return 'by input';
      };
      const reads = flag('reads');
      if (reads === 'by input') {
        refuse(properties.get('reads') as ts.Node, `${fn}: \`reads\` is written as true or false`);
        return undefined;
      }
      // Unmarked, a bundler keeps the call, the declaration and what it names in every page that
      // imports the module, whether or not the page calls it (issue 52's page budgets).
      if (!call.getFullText(source).slice(0, call.getStart(source) - call.pos).includes(PURE)) {
        refuse(call, `${fn}: mark the call pure, \`${PURE} endpoint<...>(...)\`, so that a page that does not call it leaves it out`);
        return undefined;
      }
      const [args, result, options] = call.typeArguments ?? [];
      if (args === undefined || !ts.isTupleTypeNode(args) || result === undefined) {
        refuse(call, `${fn}: endpoint<[args], Result, Options?> needs its type arguments`);
        return undefined;
      }
      const parameters: Parameter[] = [];
      for (const element of args.elements) {
        if (!ts.isNamedTupleMember(element)) {
          refuse(element, `${fn}: name each argument: [trackingNumber: string]`);
          return undefined;
        }
        parameters.push({
          name: element.name.text,
          optional: element.questionToken !== undefined,
          type: element.type.getText(source),
          ...jsonOf(element.name.text, checker.getTypeFromTypeNode(element.type), element.type),
        });
      }
      // Without its own options type, an endpoint takes the call options alone: nothing a tool offers.
      parameters.push({
        name: 'options',
        optional: true,
        type: options?.getText(source) ?? 'RequestOptions',
        ...(options === undefined ? { schema: undefined, checked: false, callbacks: [] } : jsonOf('options', checker.getTypeFromTypeNode(options), options)),
      });
      // The input after the route's ids, when a check is declared: its tool must state the rules the SDK checks.
      const input = parameters[route.match(/\{\w+\}/g)?.length ?? 0];
      if (places.rules !== undefined && properties.has('check') && input !== undefined && input.name !== 'options' && !input.checked) {
        refuse(
          declared,
          `${fn}: its input (${input.name}: ${input.type}) is checked, but no type of it has its rules in scripts/operations/rules.ts: list the type there with the schema that checks it`,
        );
        return undefined;
      }
      const types = new Map<string, string>();
      for (const node of [args, result, ...(options === undefined ? [] : [options])]) typesOf(node, types);
      if (options === undefined) types.set('RequestOptions', 'core/options');
      types.set('APIPromise', 'core/api-promise');
      const doc = docOf(statement);
      return {
        ...operation,
        fn,
        kind: 'endpoint',
        route: `${method} ${route}`,
        calls: [],
        reads: reads ?? method === 'GET',
        idempotent: flag('idempotent') ?? (method === 'GET' || method === 'PUT'),
        destructive: method === 'DELETE',
        parameters,
        returns: `APIPromise<${result.getText(source)}>`,
        result: resultOf(checker.getTypeFromTypeNode(result)),
        doc,
        summary: summaryOf(doc),
        module: moduleOf(file),
        types,
        location: where(statement),
      };
    }
  }

  /** Whether `expression` names the `endpoint` of src/functions/endpoint.ts, under whatever import name. */
  function isEndpoint(expression: ts.Expression): boolean {
    if (!ts.isIdentifier(expression)) return false;
    let symbol = checker.getSymbolAtLocation(expression);
    if (symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    const declaration = symbol?.declarations?.[0];
    return (
      declaration !== undefined &&
      ts.isFunctionDeclaration(declaration) &&
      declaration.name?.text === 'endpoint' &&
      basename(declaration.getSourceFile().fileName) === 'endpoint.ts'
    );
  }

  function holdsEndpointCall(node: ts.Node): boolean {
    if (ts.isCallExpression(node) && isEndpoint(node.expression)) return true;
    return ts.forEachChild(node, holdsEndpointCall) === true;
  }

  /** Whether a first parameter is typed as the `DeliveryCore` class. */
  function takesCoreFirst(parameter: ts.ParameterDeclaration | undefined): boolean {
    if (parameter === undefined) return false;
    const symbol = checker.getTypeAtLocation(parameter).getSymbol();
    return symbol?.getName() === 'DeliveryCore' && symbol.declarations?.some(ts.isClassDeclaration) === true;
  }

  // Each method once, each function once.
  const seen = new Map<string, Location>();
  for (const operation of found) {
    for (const key of [`${operation.namespace}.${operation.method}`, operation.fn]) {
      const first = seen.get(key);
      if (first === undefined) seen.set(key, operation.location);
      else problems.push({ ...operation.location, message: `${key} is declared twice: first at ${first.file}:${first.line}` });
    }
  }
  // A helper reads when all it calls reads, and deletes when any of it does; it calls declared operations or routes.
  const byName = new Map(found.map((operation) => [`${operation.namespace}.${operation.method}`, operation]));
  const operations = found.map((operation): OperationDescriptor => {
    if (operation.kind === 'endpoint') return operation as OperationDescriptor;
    const called = operation.calls.map((call) => {
      const route = /^(GET|POST|PUT|PATCH|DELETE) \//.exec(call);
      if (route !== null) return { reads: route[1] === 'GET', destructive: route[1] === 'DELETE' };
      const target = byName.get(call);
      if (target === undefined || target.kind !== 'endpoint') {
        problems.push({ ...operation.location, message: `@calls ${call}: names no endpoint (namespace.method) nor route (METHOD /path)` });
        return { reads: false, destructive: false };
      }
      return { reads: target.reads as boolean, destructive: target.destructive as boolean };
    });
    const reads = called.every((call) => call.reads);
    return { ...operation, reads, idempotent: reads, destructive: called.some((call) => call.destructive) } as OperationDescriptor;
  });
  if (problems.length > 0) throw new DeclarationError(problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line));
  // The namespaces in the client's order, the methods of each in alphabetical order: easy to scan, and stable whatever the files.
  const order = Object.keys(NAMESPACES);
  return operations.sort((a, b) => order.indexOf(a.namespace) - order.indexOf(b.namespace) || a.method.localeCompare(b.method));
}
