import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/**
 * `files` as Biome writes them (format, import order): what `npm run lint` expects. One Biome run
 * for all of them, over copies in a temporary folder laid out as the repository (so its
 * biome.jsonc applies to each path as it does in place); the files themselves are not touched.
 */
export function formatted(root: string, files: ReadonlyMap<string, string>): Map<string, string> {
  const code = [...files.keys()].filter((file) => file.endsWith('.ts'));
  const dir = mkdtempSync(join(tmpdir(), 'delivery-sdk-generate-'));
  try {
    copyFileSync(join(root, 'biome.jsonc'), join(dir, 'biome.jsonc'));
    for (const file of code) {
      const copy = join(dir, relative(root, file));
      mkdirSync(dirname(copy), { recursive: true });
      writeFileSync(copy, files.get(file) as string);
    }
    const biome = spawnSync(
      join(root, 'node_modules', '.bin', 'biome'),
      ['check', '--write', '--vcs-enabled=false', ...code.map((file) => relative(root, file))],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    );
    if (biome.status !== 0) throw new Error(`biome could not format the generated files:\n${biome.stdout}${biome.stderr}`);
    return new Map([...files].map(([file, text]) => [file, file.endsWith('.ts') ? readFileSync(join(dir, relative(root, file)), 'utf8') : text]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
