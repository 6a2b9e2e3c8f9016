/**
 * `npm run generate`: reads every operation declared in src/functions/ (operations/read.ts, one
 * TypeScript program) into a list of descriptors (operations/descriptor.ts), and writes from that
 * list the files that would otherwise repeat the declarations (operations/write.ts): the
 * namespace classes, their chunks, the `delivery-sdk/functions` entry, the client's namespace
 * properties and docs/endpoints.md, formatted by one Biome run (operations/format.ts).
 *
 * A declaration it cannot read stops it, naming the file and the line: no operation is ever left
 * out of what it writes. `--check` writes nothing and fails when a written file differs from what
 * the declarations render (test/operations/declarations.test.ts runs the same check).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OperationDescriptor } from './operations/descriptor.js';
import { formatted } from './operations/format.js';
import { DeclarationError, readOperations as readDeclarations } from './operations/read.js';
import { rulesOf } from './operations/rules.js';
import { ROOT, renderFiles } from './operations/write.js';

export type { OperationDescriptor } from './operations/descriptor.js';
export { DeclarationError } from './operations/read.js';

const SRC = join(ROOT, 'src');

/** Every operation declared in src/functions/ (see operations/read.ts). */
export const readOperations = (): OperationDescriptor[] => readDeclarations({ root: ROOT, src: SRC, functions: join(SRC, 'functions'), rules: rulesOf });

/** Every file the declarations render, as `npm run lint` expects it. */
export const renderAll = (operations = readOperations()): Map<string, string> => formatted(ROOT, renderFiles(operations));

/** The files whose content differs from what the declarations render (relative to the repository). */
export function staleFiles(rendered = renderAll()): string[] {
  return [...rendered].filter(([file, text]) => !existsSync(file) || readFileSync(file, 'utf8') !== text).map(([file]) => relative(ROOT, file));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let operations: OperationDescriptor[];
  try {
    operations = readOperations();
  } catch (error) {
    if (!(error instanceof DeclarationError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const rendered = renderAll(operations);
  if (process.argv.includes('--check')) {
    const stale = staleFiles(rendered);
    if (stale.length > 0) {
      console.error(`Stale, run npm run generate: ${stale.join(', ')}`);
      process.exit(1);
    }
  } else {
    for (const [file, text] of rendered) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    console.log(`Wrote ${rendered.size} files from ${operations.length} operations.`);
  }
}
