import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BINARIES, PACKAGING_TIMEOUT_MS, packageEntries, packedFileList, ROOT } from './packed-package.js';

const DOCUMENTS = ['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json'];
/** The pages README links to, so that its links work from node_modules too. */
const PAGES = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const binFiles = Object.values(BINARIES).map((file) => file.replace(/^\.\//, ''));

let packed: string[];
beforeAll(async () => {
  assertBuilt();
  packed = await packedFileList();
}, PACKAGING_TIMEOUT_MS);

describe('the tarball (npm pack --dry-run)', () => {
  it('holds only dist/ (the CLI included), README and the docs/ pages it links to, CHANGELOG, LICENSE and package.json', () => {
    const unexpected = packed.filter((file) => !file.startsWith('dist/') && !DOCUMENTS.includes(file) && !PAGES.includes(file));
    expect(unexpected).toEqual([]);
  });

  it('holds every file the exports map and bin point to, and the documents', () => {
    const needed = [...packageEntries().flatMap((entry) => entry.files), ...binFiles, ...DOCUMENTS, ...PAGES];
    expect(needed.filter((file) => !packed.includes(file))).toEqual([]);
  });

  it('ships source maps that name no path of the machine that packed them', () => {
    const maps = packed.filter((file) => file.endsWith('.map'));
    expect(maps.some((file) => file.endsWith('.cjs.map')) && maps.some((file) => file.endsWith('.js.map'))).toBe(true);
    // The checkout, and the usual homes of one, belong in no file every user downloads. 'C:\\\\' is C:\ as JSON escapes it.
    const machinePaths = [ROOT, '/home/', '/work/', '/Users/', 'C:\\\\', 'C:/'];
    const leaking = maps.flatMap((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const map = JSON.parse(text) as { sources: string[]; file?: string };
      const absolute = [...map.sources, map.file ?? ''].filter((path) => path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path));
      return [...absolute, ...machinePaths.filter((path) => text.includes(path))].map((path) => `${file}: ${path}`);
    });
    expect(leaking).toEqual([]);
  });

  it('names its repository, home page and issue tracker', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest['repository']).toEqual({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\//) });
    expect(manifest['homepage']).toMatch(/^https:\/\//);
    expect(manifest['bugs']).toEqual({ url: expect.stringMatching(/^https:\/\/.+\/issues$/) });
  });

  it('points each command at a built file that starts with a node shebang', () => {
    expect(binFiles.length).toBeGreaterThan(0);
    for (const file of binFiles) {
      expect(file).toMatch(/^dist\//);
      expect(readFileSync(join(ROOT, file), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    }
  });

  it('ships declarations that read like the source: one per module, under its name, with a CommonJS twin, none importing zod', () => {
    // Go-to-definition lands in dist/client.d.ts, not in a hashed chunk re-exporting under one-letter aliases.
    const declarations = packed.filter((file) => file.endsWith('.d.ts'));
    const sources = declarations.map((file) => file.replace(/^dist\//, 'src/').replace(/\.d\.ts$/, '.ts'));
    expect(sources.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
    expect(declarations).toContain('dist/client.d.ts');
    expect(declarations.filter((file) => !packed.includes(file.replace(/\.d\.ts$/, '.d.cts')))).toEqual([]);
    const texts = declarations.map((file) => readFileSync(join(ROOT, file), 'utf8'));
    expect(declarations.filter((_, i) => /\bexport\s*(?:type\s*)?\{[^}]*\b\w+ as [a-zA-Z]\s*[,}]/.test(texts[i] ?? ''))).toEqual([]);
    // zod is internal (DESIGN.md): a user's program never loads its declarations through ours.
    expect(declarations.filter((_, i) => /from ['"]zod/.test(texts[i] ?? ''))).toEqual([]);
    expect(texts.join('\n')).toMatch(/export declare class DeliveryClient\b/);
  });

  it('ships no test, source or temporary files inside dist/', () => {
    const typeScriptSource = (file: string): boolean => /\.[cm]?tsx?$/.test(file) && !/\.d\.[cm]?ts$/.test(file);
    expect(packed.filter((file) => typeScriptSource(file) || /\.test\.|(?:^|\/)\.tmp\/|\.tsbuildinfo$|\.tgz$/.test(file))).toEqual([]);
  });
});

describe('package.json', () => {
  it('builds before packing, so `npm pack` and `npm publish` never ship a package without dist/', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts['prepack']).toBe('npm run build');
    expect(manifest.scripts['build']).toMatch(/^tsup && /);
  });

  it('maps every subpath entry in typesVersions, for projects on moduleResolution node10 (they ignore exports)', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { typesVersions?: Record<string, Record<string, string[]>> };
    const mapped = manifest.typesVersions?.['*'] ?? {};
    const expected = Object.fromEntries(
      packageEntries()
        .filter((entry) => entry.subpath !== '.')
        .map((entry) => [entry.subpath.slice(2), [`./${entry.files.find((file) => file.endsWith('.d.cts'))}`]]),
    );
    expect(mapped).toEqual(expected);
  });
});

describe('the optional peers', () => {
  it('no built file imports or requires ioredis or redis: delivery-sdk/webhooks/redis types its client structurally', () => {
    const built = readdirSync(join(ROOT, 'dist'), { recursive: true, encoding: 'utf8' }).filter((file) => /\.(?:c?js|d\.c?ts)$/.test(file));
    expect(built).toContain(join('webhooks', 'redis.d.ts'));
    // Comments aside: the TSDoc examples show the user's own `import { Redis } from 'ioredis'`.
    const code = (file: string): string => readFileSync(join(ROOT, 'dist', file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const naming = built.filter((file) => /(?:from|import|require)\s*\(?\s*['"](?:ioredis|redis|@redis\/[^'"]*)['"]/.test(code(file)));
    expect(naming).toEqual([]);
  });
});
