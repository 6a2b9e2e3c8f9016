/**
 * Run after tsup (`npm run build`). ky is ESM-only, so a CommonJS consumer's TypeScript (node16)
 * refuses the plain `import { Hooks } from 'ky'` tsup writes into the .d.cts files (TS1479).
 * Declarations only use ky's types: mark each such import as a type import resolved as ESM.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const KY_IMPORT = /^import \{([^}]*)\} from 'ky';$/gm;
for (const file of readdirSync(dist, { recursive: true }).map(String).filter((name) => name.endsWith('.d.cts'))) {
  const path = join(dist, file);
  const text = readFileSync(path, 'utf8');
  const fixed = text.replace(KY_IMPORT, (_, names) => `import type {${names}} from 'ky' with { 'resolution-mode': 'import' };`);
  if (fixed !== text) writeFileSync(path, fixed);
}
