import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** The pages a reader gets: README first, then every page of docs/. */
export const PAGES = [
  'README.md',
  ...readdirSync(new URL('../../docs/', import.meta.url))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

export const read = (page: string): string => readFileSync(`${root}${page}`, 'utf8');

export interface Example {
  page: string;
  line: number;
  code: string;
}

/** Every ```ts block of a page, with the line it starts on. */
export function examplesOf(page: string, text = read(page)): Example[] {
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => ({
    page,
    line: text.slice(0, match.index).split('\n').length,
    code: match[1] ?? '',
  }));
}
