// CONTRIBUTING's "Where things live" is the map a newcomer opens first: every path it names must
// exist, and every folder of src/ must be on it, so a move or a new folder that forgets the map
// fails here. Its recipe, "Add an endpoint", compiles where it says it goes, and the generator
// reads the declaration it shows.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { READ_OPTIONS, readOperations } from '../../scripts/operations/read.js';
import { read, root } from './pages.js';

const contributing = read('CONTRIBUTING.md');
const section = (heading: string): string => {
  const start = contributing.indexOf(`\n## ${heading}\n`);
  expect(start, `CONTRIBUTING has "## ${heading}"`).toBeGreaterThan(0);
  const end = contributing.indexOf('\n## ', start + 1);
  return contributing.slice(start, end < 0 ? undefined : end);
};
const whereThingsLive = section('Where things live');

/** The repository paths a text names in backticks (`src/...`, `test/...`), placeholders (`<namespace>`) cut off. */
const pathsIn = (text: string): string[] =>
  [...text.matchAll(/`((?:src|test|scripts|bench|docs)\/[^`\s*]*)`/g)].map((match) => (match[1] as string).replace(/<[^>]*>.*$/, '').replace(/[.,:]$/, ''));

describe("CONTRIBUTING's map of the code", () => {
  it('names only paths that exist', () => {
    const named = [...new Set(pathsIn(contributing))];
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  it('names every folder of src/ and every file at its top', () => {
    const top = readdirSync(join(root, 'src'), { withFileTypes: true }).map((entry) => `src/${entry.name}${entry.isDirectory() ? '/' : ''}`);
    expect(top.filter((path) => !whereThingsLive.includes(`\`${path}`))).toEqual([]);
  });

  it('names, in the bullet of src/internal/ and src/core/, only files of that folder, and every one of them', () => {
    for (const folder of ['internal', 'core']) {
      const bullet = whereThingsLive.slice(whereThingsLive.indexOf(`\n- \`src/${folder}/\``)).split(/\n- /)[1] ?? '';
      const named = [...bullet.matchAll(/`([\w-]+\.ts)`/g)].map((match) => match[1] as string);
      const files = readdirSync(join(root, 'src', folder)).filter((name) => name.endsWith('.ts'));
      expect(
        named.filter((name) => !files.includes(name)),
        folder,
      ).toEqual([]);
      expect(
        files.filter((name) => !named.includes(name)),
        folder,
      ).toEqual([]);
    }
  });
});

/** The ```ts blocks of a section of CONTRIBUTING (any fence of three or more backticks), each with the file its first line names. */
function snippetsOf(text: string): Array<{ file: string; code: string }> {
  return [...text.matchAll(/^( *)(`{3,})ts\n([\s\S]*?)^\1\2$/gm)].map((match) => {
    const lines = (match[3] as string).split('\n').map((line) => line.slice((match[1] as string).length));
    const file = /^\/\/ (\S+)$/.exec(lines[0] ?? '')?.[1];
    expect(file, `a snippet of CONTRIBUTING names its file on its first line: ${lines[0]}`).toBeDefined();
    return { file: join(root, file as string), code: lines.slice(1).join('\n') };
  });
}

describe('CONTRIBUTING\'s recipe, "Add an endpoint"', () => {
  const snippets = snippetsOf(section('Add an endpoint'));
  // Each file with the snippets that go at its end, as a program sees it: the sources on disk, those files changed.
  const changed = new Map<string, string>();
  for (const { file, code } of snippets) changed.set(file, `${changed.get(file) ?? readFileSync(file, 'utf8')}\n${code}`);
  const hostFor = (options: ts.CompilerOptions): ts.CompilerHost => {
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, language, ...rest) => {
      const text = changed.get(fileName);
      return text === undefined ? getSourceFile(fileName, language, ...rest) : ts.createSourceFile(fileName, text, language, true);
    };
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (fileName) => changed.has(fileName) || fileExists(fileName);
    host.readFile = (fileName) => changed.get(fileName) ?? ts.sys.readFile(fileName);
    return host;
  };

  it('has snippets, each in a file that exists', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(2);
    expect(snippets.filter(({ file }) => !existsSync(file)).map(({ file }) => file)).toEqual([]);
  });

  it('type-checks each snippet at the end of its file, under the project settings', () => {
    const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    const options = { ...config?.options, noEmit: true, incremental: false };
    const program = ts.createProgram([...changed.keys()], options, hostFor(options));
    const diagnostics = [...changed.keys()].flatMap((file) => {
      const source = program.getSourceFile(file);
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    });
    expect(
      diagnostics.map((diagnostic) => `${relative(root, diagnostic.file?.fileName ?? '')}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`),
    ).toEqual([]);
  });

  it('declares an operation the generator reads', () => {
    const src = join(root, 'src');
    const operations = readOperations({ root, src, functions: join(src, 'functions') }, undefined, hostFor(READ_OPTIONS));
    expect(operations.find((operation) => operation.namespace === 'pickups' && operation.method === 'deliveries')).toMatchObject({
      fn: 'listPickupDeliveries',
      route: 'GET /pickups/{pickupId}/deliveries',
      reads: true,
      chunk: 'pickups',
    });
  });
});
