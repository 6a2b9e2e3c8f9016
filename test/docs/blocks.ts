// Every fenced block of README.md and docs/*.md, and what the docs' tests do with it: run it
// against the sandbox (run-ts.ts, run-sh.ts), or read in the block why it is not run.
import { type Example, PAGES, read } from './pages.js';

export interface Block extends Example {
  /** The fence's language: `ts`, `sh`, `text`, or '' when it names none. */
  lang: string;
}

/** Every fenced block of a page, any language, indented ones (in a list) dedented, with the line its fence is on. */
export function blocksOf(page: string, text = read(page)): Block[] {
  return [...text.matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)].map((match) => {
    const indent = match[1] ?? '';
    const code = (match[3] ?? '')
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n');
    return { page, line: text.slice(0, match.index).split('\n').length, lang: match[2] ?? '', code };
  });
}

export const BLOCKS: Block[] = PAGES.flatMap((page) => blocksOf(page));

/**
 * How a block says it is not run, and why, on a comment line of its own: `// Not run against the
 * sandbox: it opens port 4010 on every interface.` (`#` in a shell block).
 */
const NOT_RUN = /^(?:\/\/|#) Not run against the sandbox: (.+)$/m;

/** Why the block is not run, as it says; undefined for a block that runs. */
export const whyNotRun = (block: Block): string | undefined => NOT_RUN.exec(block.code)?.[1];

/** The first line of the one block every TypeScript example runs after (docs/sandbox.md, "The examples' prelude"). */
export const PRELUDE_HEAD = "// The examples' prelude";

export const isPrelude = (block: Block): boolean => block.code.startsWith(`${PRELUDE_HEAD}:`);

/**
 * A block that sets msw up itself runs without the prelude, whose msw server it would displace:
 * msw answers from the latest `setupServer` listening, so the prelude's handlers would go unheard.
 */
export const setsUpMsw = (block: Block): boolean => /from 'msw\/node'/.test(block.code);

/** Not code: text (a diagram, a run's output) or data (a CSV file's lines). */
export const isText = (block: Block): boolean => block.lang === 'text' || block.lang === 'csv';

export const where = (block: Block): string => `${block.page}:${block.line}`;

/** The assistants' configurations of docs/mcp.md (JSON, which holds no comment): test/mcp/configs.test.ts starts the server as each says. */
export const isMcpConfiguration = (block: Block): boolean => block.page === 'docs/mcp.md' && block.lang === 'json';
