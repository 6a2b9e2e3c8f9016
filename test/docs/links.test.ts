// README and docs/ link to each other's sections; a moved heading or a renamed page must fail here,
// not in front of a reader.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGES, root } from './pages.js';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, '');
  return new Set([...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] ?? '')));
}

/** Relative links of a page (not in code blocks): [text](target). */
function linksOf(markdown: string): string[] {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '').filter((target) => !/^[a-z]+:/.test(target));
}

describe('links between README and docs/', () => {
  it('reads headings as GitHub anchors them', () => {
    expect(anchorOf('`client.lookup` (public, cached)')).toBe('clientlookup-public-cached');
    expect(anchorOf('The HTTP reference (curl and other languages)')).toBe('the-http-reference-curl-and-other-languages');
  });

  it.each(['README.md', 'CONTRIBUTING.md', ...PAGES.filter((page) => page !== 'README.md')])(
    'every relative link of %s reaches a file and, with #, a heading',
    (page) => {
      const broken: string[] = [];
      for (const target of linksOf(readFileSync(join(root, page), 'utf8'))) {
        const [path = '', anchor] = target.split('#');
        const file = path === '' ? join(root, page) : normalize(join(root, dirname(page), path));
        if (!existsSync(file)) broken.push(`${target}: no such file`);
        else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${target}: no such heading`);
      }
      expect(broken).toEqual([]);
    },
  );
});

describe('the pictures of README and docs/', () => {
  it('come from the repository (the package ships no image), and each is a tracked file of it', () => {
    const pictures = PAGES.flatMap((page) => [...readFileSync(join(root, page), 'utf8').matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? ''));
    expect(pictures.length).toBeGreaterThan(0);
    const REPOSITORY = 'https://github.com/delivery-sdk/delivery-sdk/raw/main/';
    expect(pictures.filter((url) => !url.startsWith(REPOSITORY) || !existsSync(join(root, url.slice(REPOSITORY.length))))).toEqual([]);
  });
});

describe('the pages the package ships (README.md, docs/*.md) hold for a reader of node_modules', () => {
  /** What `npm pack` puts in the tarball: package.json's `files`, and what npm always adds. */
  const shipped = (path: string): boolean => {
    const { files } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
    const always = ['README.md', 'LICENSE', 'package.json'];
    return (
      always.includes(path) ||
      files.some((pattern) =>
        pattern.includes('*')
          ? new RegExp(`^${pattern.replace('.', '\\.').replace('*', '[^/]+')}$`).test(path)
          : path === pattern || path.startsWith(`${pattern}/`),
      )
    );
  };

  it('reads package.json files as npm does', () => {
    expect(['README.md', 'docs/orders.md', 'dist/index.js', 'CHANGELOG.md'].every(shipped)).toBe(true);
    expect(['examples/demo.ts', 'CONTRIBUTING.md', 'docs/api/index.html'].some(shipped)).toBe(false);
  });

  it.each(PAGES)('every relative link of %s reaches a file the package ships (others are absolute URLs to the repository)', (page) => {
    const outside = linksOf(readFileSync(join(root, page), 'utf8'))
      .map((target) => target.split('#')[0] ?? '')
      .filter((path) => path !== '')
      .filter((path) => !shipped(normalize(join(dirname(page), path)).replace(/\\/g, '/')));
    expect(outside).toEqual([]);
  });

  /** A page's sections, each from its heading (a `#` line outside a code block) to the next. */
  const sectionsOf = (text: string): string[] => {
    const sections: string[] = [];
    let inCode = false;
    for (const line of text.split('\n')) {
      if (/^\s*```/.test(line)) inCode = !inCode;
      if ((!inCode && /^#{1,6} /.test(line)) || sections.length === 0) sections.push(line);
      else sections[sections.length - 1] += `\n${line}`;
    }
    return sections;
  };

  // Commands that exist only in a clone: the package has no scripts/, .ci/, tests or npm scripts of its own for users.
  const REPOSITORY_ONLY = /npx tsx scripts\/|npm run (?:docs|bench|test:runtimes|build|demo|sandbox)\b|\.ci\/run|npm test\b/;

  it.each(PAGES)('%s says "in the repository" wherever it names a command that only a clone has', (page) => {
    const sections = sectionsOf(readFileSync(join(root, page), 'utf8'));
    const unqualified = sections
      .filter((section) => REPOSITORY_ONLY.test(section) && !/repository|clone/.test(section))
      .map((section) => section.split('\n')[0]);
    expect(unqualified).toEqual([]);
  });

  it('docs/runtimes.md counts and names every entry of the exports map', () => {
    const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const entries = Object.keys(exports)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => (subpath === '.' ? 'delivery-sdk' : `delivery-sdk/${subpath.slice(2)}`));
    const page = readFileSync(join(root, 'docs/runtimes.md'), 'utf8').replace(/\s+/g, ' ');
    const words = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    expect(page).not.toMatch(new RegExp(`\\b(?!${words[entries.length - 1]}\\b)(${words.join('|')}) entries`));
    for (const entry of entries) expect(page).toContain(`\`${entry}\``);
  });

  it('docs/webhooks.md\'s Redis example attaches an error listener (ioredis prints "Unhandled error event" without one)', () => {
    const example = readFileSync(join(root, 'docs/webhooks.md'), 'utf8').match(/```ts\n[^`]*new Redis\([\s\S]*?```/)?.[0] ?? '';
    expect(example).toContain("redis.on('error'");
  });
});

describe('README, the first page a merchant reads', () => {
  // The depth lives in docs/; README stays short enough to read in one sitting (CONTRIBUTING, "Changes").
  it('is at most 450 lines', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(450);
  });
});
