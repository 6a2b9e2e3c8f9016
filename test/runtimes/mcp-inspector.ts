// The MCP Inspector's command line (`@modelcontextprotocol/inspector --cli`), the tool assistants'
// developers check a server with, against `delivery-sdk mcp --sandbox` of the built package: the
// tools in each mode, a read answered, a bad argument refused as a tool result. It needs Node 22.19
// or later, so it runs on the Node 22 the matrix takes from the npm registry (once in the npx
// cache, offline); the server itself runs on this machine's Node, as an assistant would start it.
import { TOOLS } from '../../src/mcp/tools.js';

/** Pinned: the check reads the Inspector's printed JSON, which a major version may change. */
export const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';

export type RunProcess = (command: string, args: string[], cwd: string, timeoutMs: number) => Promise<{ code: number | null; output: string }>;

interface Step {
  what: string;
  /** Arguments of `mcp-inspector --cli` after the server's command line. */
  args: string[];
  allowWrites?: boolean;
  /** What the Inspector exits with: 0, or 5 for a tool result with `isError` (its `tool_is_error`). */
  exitCode?: number;
  /** A problem with the printed answer, or undefined when it is right. */
  check(answer: Record<string, unknown>): string | undefined;
}

const namesOf = (answer: Record<string, unknown>): string[] => ((answer['tools'] as Array<{ name: string }> | undefined) ?? []).map((tool) => tool.name);
const expectedNames = (writes: boolean): string[] => TOOLS.filter((tool) => writes || tool.reads).map((tool) => tool.name);
const sameList = (got: string[], want: string[]): string | undefined =>
  got.length === want.length && got.every((name, index) => name === want[index])
    ? undefined
    : `listed ${got.length} tools, expected ${want.length}: ${got.join(', ')}`;

const STEPS: Step[] = [
  { what: 'lists the reading tools', args: ['--method', 'tools/list'], check: (answer) => sameList(namesOf(answer), expectedNames(false)) },
  {
    what: 'lists every tool with --allow-writes',
    args: ['--method', 'tools/list'],
    allowWrites: true,
    check: (answer) => sameList(namesOf(answer), expectedNames(true)),
  },
  {
    what: 'answers lookup_cities',
    args: ['--method', 'tools/call', '--tool-name', 'lookup_cities', '--tool-arg', 'params={"countryId":"60e4482c7cb7d4bc4849c4d5"}'],
    check: (answer) => {
      const items = (answer['structuredContent'] as { items?: Array<{ name?: string }> } | undefined)?.items ?? [];
      return answer['isError'] !== true && items.some((city) => city.name === 'Cairo') ? undefined : `no Cairo in ${JSON.stringify(answer).slice(0, 300)}`;
    },
  },
  {
    what: 'refuses a tracking number of the wrong type as a tool result naming the field',
    args: ['--method', 'tools/call', '--tool-name', 'deliveries_track', '--tool-arg', 'trackingNumber=[1]'],
    exitCode: 5,
    check: (answer) => {
      const text = JSON.stringify(answer['content'] ?? '');
      return answer['isError'] === true && text.includes('trackingNumber') ? undefined : `not an isError naming trackingNumber: ${text.slice(0, 300)}`;
    },
  },
];

/** The printed JSON answer: from a line that opens an object to the first line that closes one (npm, the server and the Inspector write lines of their own around it). */
function answerIn(output: string): Record<string, unknown> | undefined {
  const printed = /^\{$[\s\S]*?^\}$/m.exec(output)?.[0];
  if (printed === undefined) return undefined;
  try {
    return JSON.parse(printed) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

const quoted = (arg: string): string => `'${arg.replaceAll("'", "'\\''")}'`;

/** Runs every step; resolves to the matrix's outcome. */
export async function checkWithInspector(
  runProcess: RunProcess,
  npx: string,
  root: string,
  serverCli: string,
  timeoutMs: number,
): Promise<{ ok: boolean; detail: string; output?: string }> {
  for (const step of STEPS) {
    const server = [process.execPath, serverCli, 'mcp', '--sandbox', ...(step.allowWrites === true ? ['--allow-writes'] : [])];
    const command = ['mcp-inspector', '--cli', ...server, ...step.args].map(quoted).join(' ');
    const { code, output } = await runProcess(npx, ['--prefer-offline', '-y', '-p', 'node@22', '-p', INSPECTOR, '-c', command], root, timeoutMs);
    const answer = answerIn(output);
    const problem = code !== (step.exitCode ?? 0) ? `exit ${code}` : answer === undefined ? 'printed no JSON answer' : step.check(answer);
    if (problem !== undefined) return { ok: false, detail: `${step.what}: ${problem}`, output };
  }
  return {
    ok: true,
    detail: `${INSPECTOR.slice(INSPECTOR.lastIndexOf('/') + 1)}: ${STEPS.length} checks passed (${STEPS.map((step) => step.what).join('; ')})`,
  };
}
