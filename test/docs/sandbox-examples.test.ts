// The blocks of README.md and docs/sandbox.md that drive an order through the sandbox. examples.test.ts
// type-checks them, which cannot tell a transition the sandbox refuses (README once advanced a new
// order straight to 47). Here each runs as written against a real sandbox, given what it takes as
// given: right after its `createSandbox`, a merchant and an order whose tracking number is
// `trackingNumber`; and `url`, a webhook receiver on 127.0.0.1.
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { isFinalState } from '../../src/index.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/testing/index.js';
import { createOrder, dropOff, setUpAccount, startReceiver } from '../support/sandbox.js';
import { type Example, examplesOf } from './pages.js';

const DRIVES_AN_ORDER = /\bsandbox\.advance\(trackingNumber\b/;
const SANDBOX_CREATED = /^const sandbox = createSandbox\(.*\);$/m;
const drivingBlocks = ['README.md', 'docs/sandbox.md'].flatMap((page) => examplesOf(page).filter((example) => DRIVES_AN_ORDER.test(example.code)));

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...names: string[]) => (...values: unknown[]) => Promise<unknown>;

const opened: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((thing) => thing.close()));
});

async function anOrderIn(sandbox: Sandbox): Promise<string> {
  await setUpAccount(sandbox);
  const answer = await createOrder(sandbox, { type: 10, dropOffAddress: dropOff, cod: 450 });
  expect(answer.status).toBe(201);
  return answer.body.data.trackingNumber;
}

/** Runs the block as the page writes it (types stripped), with an order made in its sandbox; the sandbox and the order's tracking number. */
async function runAsWritten(example: Example): Promise<{ sandbox: Sandbox; trackingNumber: string }> {
  const receiver = await startReceiver();
  opened.push(receiver);
  const made: Sandbox[] = [];
  const trackedCreateSandbox = (options?: SandboxOptions): Sandbox => {
    const sandbox = createSandbox(options);
    made.push(sandbox);
    opened.push(sandbox);
    return sandbox;
  };
  // A block that drives the sandbox the page made before it starts with one of its own here.
  const own = SANDBOX_CREATED.test(example.code) ? example.code : `const sandbox = createSandbox();\n${example.code}`;
  const code = `let trackingNumber;\n${own.replace(SANDBOX_CREATED, '$&\ntrackingNumber = await anOrderIn(sandbox);')}\nreturn trackingNumber;`;
  const { outputText } = ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } });
  const trackingNumber = await new AsyncFunction('createSandbox', 'anOrderIn', 'url', outputText)(trackedCreateSandbox, anOrderIn, receiver.url);
  const [sandbox] = made;
  if (sandbox === undefined || typeof trackingNumber !== 'string') throw new Error(`${example.page}:${example.line} made no sandbox or no order`);
  return { sandbox, trackingNumber };
}

describe('The blocks of README.md and docs/sandbox.md that drive an order', () => {
  it('are found on both pages, each creating its sandbox on a line of its own', () => {
    expect(drivingBlocks.map((example) => example.page)).toEqual(['README.md', 'docs/sandbox.md']);
  });

  it.each(drivingBlocks.map((example) => [`${example.page}:${example.line}`, example]))(
    'the block at %s runs as written: each step one the sandbox allows, through an exception (47) to a final state',
    async (_, example) => {
      const { sandbox, trackingNumber } = await runAsWritten(example);
      const states = sandbox.order(trackingNumber).history.map((event) => event.state);
      expect(states.slice(0, 2)).toEqual([10, 20]);
      expect(states).toContain(47);
      expect(isFinalState(states.at(-1) ?? 0)).toBe(true);
    },
  );
});
