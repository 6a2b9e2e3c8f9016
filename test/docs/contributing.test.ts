// CONTRIBUTING's "Where things live" is the map a newcomer opens first: every path it names must
// exist, and every folder of src/ must be on it, so a move or a new folder that forgets the map
// fails here.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
