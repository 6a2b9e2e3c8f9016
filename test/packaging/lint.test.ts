import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGING_TIMEOUT_MS, packageEntries, packTarball, ROOT, run } from './packed-package.js';

// Both linters read the very tarball users would download, not the working tree.
let tarball: string;
beforeAll(async () => {
  tarball = await packTarball();
}, PACKAGING_TIMEOUT_MS);

interface AttwAnalysis {
  entrypoints: Record<string, unknown>;
  problems: Array<{ kind: string; entrypoint?: string; resolutionKind?: string }>;
}

describe('the published package passes the ecosystem linters', () => {
  it(
    'publint finds nothing, not even a suggestion',
    async () => {
      const bytes = readFileSync(tarball);
      const { messages, pkg } = await publint({
        pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
        level: 'suggestion',
        strict: true,
      });
      expect(messages.map((message) => `${message.type}: ${formatMessage(message, pkg) ?? message.code}`)).toEqual([]);
    },
    PACKAGING_TIMEOUT_MS,
  );

  it(
    'are-the-types-wrong finds no problem for any entry under node10, node16 (ESM and CJS) and bundler resolution',
    async () => {
      // attw exits non-zero when it finds problems; the JSON report says which, so read it either way.
      const output = await run(process.execPath, [join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarball, '--format', 'json']).catch(
        (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
      );
      const analysis = (JSON.parse(output.stdout) as { analysis: AttwAnalysis }).analysis;
      expect(Object.keys(analysis.entrypoints).sort()).toEqual([...packageEntries().map((entry) => entry.subpath), './package.json'].sort());
      expect(analysis.problems).toEqual([]);
    },
    PACKAGING_TIMEOUT_MS,
  );
});
