// Every code block of README.md and docs/*.md runs against the sandbox as written, or says in the
// block why it cannot. examples.test.ts type-checks the TypeScript ones, which cannot tell a call
// the sandbox refuses (an unknown district id, a tracking number no order has, a one-time code
// never sent); here each runs, after the examples' prelude (docs/sandbox.md), and the curl
// blocks of docs/sandbox.md run against the sandbox CLI, their documented answers compared.
import { describe, expect, it } from 'vitest';
import { isFinalState } from '../../src/index.js';
import type { Sandbox } from '../../src/testing/index.js';
import { SKIP_WITHOUT_CHROMIUM } from '../support/chromium.js';
import { BLOCKS, type Block, isMcpConfiguration, isPrelude, isText, setsUpMsw, where, whyNotRun } from './blocks.js';
import { givenNames } from './examples-check.js';
import { topLevelNames } from './names.js';
import { PAGES, read } from './pages.js';
import { HTTP_REFERENCE, runHttpReference } from './run-sh.js';
import { runTs } from './run-ts.js';

const [prelude, ...otherPreludes] = BLOCKS.filter(isPrelude);
const typescript = BLOCKS.filter((block) => block.lang === 'ts' && whyNotRun(block) === undefined);

/** The blocks that are not run, and why, as each says, with how many say it (the list changes only on purpose). */
const NOT_RUN: Record<string, [RegExp, number]> = {
  'README.md Install': [/npm registry|tarball/, 1],
  'README.md Set-up': [/npm test/, 1],
  'docs/runtimes.md': [/Deno, Bun and Chromium/, 1],
  'docs/sandbox.md listen on every interface': [/every interface/, 1],
  'docs/webhooks.md Express': [/express/, 1],
  'docs/webhooks.md Redis': [/Redis/, 1],
  'docs/observability.md': [/OpenTelemetry's Node SDK/, 2],
  'the command line, README.md and docs/cli.md': [/test\/cli\//, 10],
  'the MCP server, docs/mcp.md': [/test\/mcp\//, 1],
};

describe('The code blocks of README.md and docs/', () => {
  it('are each run here, or say why not; the rest is text (a diagram, a run’s output)', () => {
    const unlabeled = BLOCKS.filter((block) => block.lang === '').map(where);
    expect(unlabeled, 'a fence names its language (text for what is not code)').toEqual([]);
    const runs = (block: Block): boolean =>
      (block.lang === 'ts' && typescript.includes(block)) ||
      (block.lang === 'sh' && HTTP_REFERENCE.some((run) => where(run) === where(block))) ||
      isMcpConfiguration(block);
    const neither = BLOCKS.filter((block) => !isText(block) && !runs(block) && whyNotRun(block) === undefined).map(where);
    expect(neither, 'blocks that neither run nor say why').toEqual([]);
    const reasons = BLOCKS.flatMap((block) => {
      const why = whyNotRun(block);
      return why === undefined ? [] : [why];
    });
    expect(reasons).toHaveLength(Object.values(NOT_RUN).reduce((sum, [, count]) => sum + count, 0));
    for (const [name, [reason, count]] of Object.entries(NOT_RUN))
      expect(
        reasons.filter((why) => reason.test(why)),
        name,
      ).toHaveLength(count);
    expect(typescript.length).toBeGreaterThan(40);
  });

  it("lean on one prelude, docs/sandbox.md's: a block takes as given only variables it makes, never a name it imports", () => {
    expect(prelude?.page).toBe('docs/sandbox.md');
    expect(otherPreludes).toEqual([]);
    const taken = new Set(typescript.filter((block) => block !== prelude && !setsUpMsw(block)).flatMap((block) => givenNames(block.code)));
    expect(taken.size).toBeGreaterThan(10);
    // `it`, `DeliveryType`, `createSandbox`: the prelude imports them, and a block that uses one imports it itself.
    const made = topLevelNames(prelude?.code ?? '', { imports: false });
    expect(topLevelNames(prelude?.code ?? '').filter((name) => !made.includes(name))).toEqual(expect.arrayContaining(['it', 'DeliveryType', 'createSandbox']));
    expect(['it', 'DeliveryType', 'createSandbox'].filter((name) => taken.has(name))).toEqual([]);
    // Named once: README points to it, the other pages use it without a word.
    const links = PAGES.flatMap((page) => [...read(page).matchAll(/\(([\w./]*)#the-examples-prelude\)/g)].map((link) => `${page} -> ${link[1]}`));
    expect(links).toEqual(['README.md -> docs/sandbox.md']);
  });

  it.for(typescript.map((block) => [where(block), block] as const))('the TypeScript block at %s runs as written', async ([, block], context) => {
    // A block that drives a browser needs Chromium: skipped without it outside CI (test/support/chromium.ts).
    if (SKIP_WITHOUT_CHROMIUM && block.code.includes("from 'playwright-core'")) context.skip();
    await runTs(block, prelude as Block);
  });

  it('the curl blocks of docs/sandbox.md run against the sandbox CLI as written, answering what they show', async () => {
    const { answers, started, webhooks } = await runHttpReference(HTTP_REFERENCE);
    // What the CLI prints when it starts, as the first block shows it.
    expect(started.documented).toHaveLength(3);
    for (const line of started.documented)
      expect(
        started.printed.split('\n').some((printed) => line.test(printed)),
        String(line),
      ).toBe(true);
    expect(answers.length).toBeGreaterThan(15);
    for (const answer of answers) {
      expect(answer.json, `${answer.command}\n${answer.output}`).toBe(true);
      if (answer.documented !== undefined) expect(answer.output, answer.command).toMatch(answer.documented);
      else expect(answer.output, answer.command).toMatch(/^\{"success":true,/);
    }
    // "Your endpoint" got the order's webhooks, state by state, with the header the page set.
    expect(webhooks.map((hook) => [hook.body.trackingNumber, hook.body.state, hook.headers['x-auth']])).toEqual(
      [20, 21, 24, 30, 24, 41, 45].map((state) => ['70000001', state, 'secret']),
    );
  });
});

describe('What some blocks do, checked beyond running', () => {
  const block = (page: string, text: string): Block => {
    const found = typescript.find((candidate) => candidate.page === page && candidate.code.includes(text));
    if (found === undefined) throw new Error(`no block of ${page} has '${text}'`);
    return found;
  };

  it("README's lost answer: one order, the test's own assertions passing", async () => {
    const run = await runTs(block('README.md', "kind: 'drop-after'"), prelude as Block);
    expect(run.tests).toEqual(['keeps one order when the answer to its create is lost']);
  });

  it("docs/sandbox.md's first test: the server refuses a cod above 30000 with the client's class", async () => {
    const run = await runTs(block('docs/sandbox.md', 'CodLimitExceededError'), prelude as Block);
    expect(run.tests).toEqual(['refuses a cod above 30000 on the server side too']);
  });

  it("the blocks that drive the prelude's order: each step one the sandbox allows, through an exception (47) to a final state", async () => {
    const drivingBlocks = typescript.filter((candidate) => /\bsandbox\.advance\(trackingNumber\b/.test(candidate.code));
    expect(drivingBlocks.map((driving) => driving.page)).toEqual(['README.md', 'docs/sandbox.md']);
    for (const driving of drivingBlocks) {
      const { given } = await runTs(driving, prelude as Block);
      const states = (given['sandbox'] as Sandbox).order(given['trackingNumber'] as string).history.map((event) => event.state);
      expect(states.slice(0, 2), where(driving)).toEqual([10, 20]);
      expect(states, where(driving)).toContain(47);
      expect(isFinalState(states.at(-1) ?? 0), where(driving)).toBe(true);
    }
  });

  it('the labels are PDF files', async () => {
    const run = await runTs(block('docs/after-create.md', "writeFile('labels.pdf'"), prelude as Block);
    expect(run.files).toEqual(['labels.pdf']);
  });

  it.skipIf(SKIP_WITHOUT_CHROMIUM)("docs/sandbox.md's dashboard test in CI: finds the refused create in the request log", async () => {
    const run = await runTs(block('docs/sandbox.md', "from 'playwright-core'"), prelude as Block);
    expect(run.tests).toEqual(['lists the refused create in the request log']);
    expect(run.files).toEqual([]); // no failure, no screenshot
  });

  it("docs/sandbox.md's team: one merchant's order is not the other's", async () => {
    const run = await runTs(block('docs/sandbox.md', 'asGiza'), prelude as Block);
    expect(run.printed).toEqual(['true 1 0']);
  });
});
