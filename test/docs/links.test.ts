// README and docs/ link to each other's sections; a moved heading or a renamed page must fail here,
// not in front of a reader.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGES, root } from './pages.js';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
export function anchorOf(heading: string): string {
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

  it.each(['README.md', 'CONTRIBUTING.md', ...PAGES.filter((page) => page !== 'README.md')])('every relative link of %s reaches a file and, with #, a heading', (page) => {
    const broken: string[] = [];
    for (const target of linksOf(readFileSync(join(root, page), 'utf8'))) {
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? join(root, page) : normalize(join(root, dirname(page), path));
      if (!existsSync(file)) broken.push(`${target}: no such file`);
      else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});
