// `delivery-sdk mcp` as an assistant meets it (issue 51): the official SDK's Client over stdio,
// spawning the BUILT command against a sandbox served on loopback with a recognisable key. The
// tools in each mode, a create then tracking it, a refused create (3007), an argument of the
// wrong type, a list continued by its cursor, a cancel, labels as resources and files, a wait
// with progress; and no answer, log or error carries the key.
import { existsSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readyMerchant } from '../../src/cli/ready-merchant.js';
import { DeliveryClient, DeliveryState, DeliveryType } from '../../src/index.js';
import { TOOLS } from '../../src/mcp/tools.js';
import { createSandbox, type Sandbox, type SandboxServer } from '../../src/testing/index.js';
import { BIN, requireBuilt, run, start, type Workspace, workspace } from '../cli/cli.js';
import { dropOff } from '../support/sandbox.js';

/** A key no answer, log or error may show: any part of it in the output is a leak. */
const KEY = 'sk_live_MCP-KEY-6f1d93c0-never-shown';

interface Session {
  client: Client;
  /** What the server wrote on stderr. */
  stderr(): string;
}

let sandbox: Sandbox;
let server: SandboxServer;
let files: Workspace;
const sessions: Session[] = [];
/** Every answer the tests received, as JSON: held to not carrying the key at the end. */
const answers: string[] = [];

async function connect(args: readonly string[], key = KEY): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { DELIVERY_API_KEY: key, DELIVERY_BASE_URL: server.baseUrl },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'delivery-sdk-tests', version: '1.0.0' });
  await client.connect(transport);
  const session = { client, stderr: () => stderr };
  sessions.push(session);
  return session;
}

let reader: Session;
let writer: Session;

/** Calls a tool and keeps the answer for the key check. */
async function call(session: Session, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = (await session.client.callTool({ name, arguments: args })) as CallToolResult;
  answers.push(JSON.stringify(result));
  return result;
}

/** The error of an `isError` answer, as its JSON text block has it. */
function refusal(result: CallToolResult): Record<string, unknown> {
  expect(result.isError).toBe(true);
  const json = result.content.find((block) => block.type === 'text' && block.text.startsWith('{'));
  return JSON.parse((json as { text: string }).text) as Record<string, unknown>;
}

const order = (reference: string, cod = 250) => ({
  type: DeliveryType.Deliver,
  dropOffAddress: dropOff,
  receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
  businessReference: reference,
  cod,
});

beforeAll(async () => {
  requireBuilt();
  sandbox = createSandbox({ apiKey: KEY });
  await readyMerchant(sandbox);
  server = await sandbox.listen({ port: 0 });
  files = workspace();
  [reader, writer] = await Promise.all([connect([]), connect(['--allow-writes', '--out', files.dir])]);
}, 60_000);

afterAll(async () => {
  await Promise.all(sessions.map((session) => session.client.close()));
  await sandbox?.close();
  files?.remove();
});

describe('delivery-sdk mcp over stdio', () => {
  it('tells its name and the package version, and how to use it', () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(reader.client.getServerVersion()).toEqual({ name: 'delivery-sdk', version });
    expect(reader.client.getInstructions()).toMatch(/nextCursor/);
  });

  it('lists the operations that read, and with --allow-writes every operation, each with its hints', async () => {
    const [reads, all] = await Promise.all([reader.client.listTools(), writer.client.listTools()]);
    expect(reads.tools.map((tool) => tool.name)).toEqual(TOOLS.filter((tool) => tool.reads).map((tool) => tool.name));
    expect(all.tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
    expect(reads.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['deliveries_track', 'deliveries_get', 'pickup_locations_list', 'lookup_cities']),
    );
    expect(reads.tools.map((tool) => tool.name)).not.toContain('deliveries_create');
    const byName = new Map(all.tools.map((tool) => [tool.name, tool]));
    for (const tool of reads.tools) expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true });
    for (const name of ['deliveries_terminate', 'pickups_delete', 'pickup_locations_delete'])
      expect(byName.get(name)?.annotations, name).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    expect(byName.get('deliveries_create')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(byName.get('pickups_update')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(byName.get('lookup_clear_cache')?.annotations).toMatchObject({ openWorldHint: false });
    // The parameters by name, each as JSON Schema; an output schema for structuredContent.
    expect(byName.get('deliveries_track')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { trackingNumber: { type: 'string' } },
      required: ['trackingNumber'],
    });
    expect(Object.keys(byName.get('deliveries_create')?.inputSchema.properties ?? {})).toEqual(['order']);
    for (const tool of all.tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
  });

  it('refuses a write tool of a read-only server by saying how to allow it, and goes on serving', async () => {
    const error = refusal(await call(reader, 'deliveries_create', { order: order('mcp-read-only') }));
    expect(String(error['message'])).toMatch(/--allow-writes/);
    expect(sandbox.orders().filter((created) => created.businessReference === 'mcp-read-only')).toEqual([]);
    expect((await call(reader, 'pickup_locations_list')).isError).toBeFalsy();
  });

  it('creates an order, then tracks it: structuredContent as the output schema says, and a line to read', async () => {
    const created = await call(writer, 'deliveries_create', { order: order('mcp-create') });
    expect(created.isError).toBeFalsy();
    const { trackingNumber } = created.structuredContent as { trackingNumber: string };
    expect(sandbox.orders().find((stored) => stored.trackingNumber === trackingNumber)?.businessReference).toBe('mcp-create');
    const tracked = await call(reader, 'deliveries_track', { trackingNumber });
    expect(tracked.structuredContent).toMatchObject({ trackingNumber, currentState: { code: DeliveryState.PickupRequested } });
    const [line] = tracked.content as Array<{ type: string; text: string }>;
    expect(line?.type).toBe('text');
    expect(line?.text).toContain(trackingNumber);
    // A summary, not the JSON again.
    expect(() => JSON.parse(line?.text ?? '')).toThrow();
  });

  it('refuses a create over the COD limit with errorCode 3007 naming order.cod, and sends nothing', async () => {
    const before = sandbox.orders().length;
    const error = refusal(await call(writer, 'deliveries_create', { order: order('mcp-3007', 30_001) }));
    expect(error).toMatchObject({ error: 'CodLimitExceededError', errorCode: 3007, mayExist: false, source: 'client' });
    expect(error['issues']).toEqual([expect.objectContaining({ path: 'order.cod', errorCode: 3007 })]);
    expect(sandbox.orders()).toHaveLength(before);
  });

  it('refuses an argument of the wrong type by naming it, and answers the next call', async () => {
    const wrong = refusal(await call(reader, 'deliveries_get', { trackingNumber: 70000123 }));
    expect(wrong).toMatchObject({ error: 'ValidationError', issues: [{ path: 'trackingNumber', message: expect.stringMatching(/expected a string/) }] });
    const unknown = refusal(await call(reader, 'deliveries_get', { trackingNumber: '70000123', tracking: 'x' }));
    expect(unknown['issues']).toEqual([expect.objectContaining({ path: 'tracking', message: expect.stringMatching(/not an argument of deliveries_get/) })]);
    const nested = refusal(await call(reader, 'deliveries_search', { filter: { page: 'two' } }));
    expect(nested['issues']).toEqual([expect.objectContaining({ path: 'filter.page' })]);
    await reader.client.ping();
  });

  it('answers a list 50 orders at a time, the rest by its cursor, each order once', async () => {
    const client = new DeliveryClient({ baseUrl: server.baseUrl, apiKey: KEY });
    await client.deliveries.createBulk(Array.from({ length: 55 }, (_, index) => order(`mcp-list-${index}`)));
    const total = sandbox.orders().length;
    const first = await call(reader, 'deliveries_list', {});
    const page = first.structuredContent as { items: Array<{ trackingNumber: string }>; nextCursor?: string };
    expect(page.items).toHaveLength(50);
    expect(page.nextCursor).toEqual(expect.any(String));
    const numbers = page.items.map((item) => item.trackingNumber);
    for (let cursor = page.nextCursor; cursor !== undefined; ) {
      const next = (await call(reader, 'deliveries_list', { cursor })).structuredContent as typeof page;
      expect(next.items.length).toBeLessThanOrEqual(50);
      numbers.push(...next.items.map((item) => item.trackingNumber));
      cursor = next.nextCursor;
    }
    expect(numbers).toHaveLength(total);
    expect(new Set(numbers).size).toBe(total);
    const stale = refusal(await call(reader, 'deliveries_list', { cursor: page.nextCursor }));
    expect(stale['issues']).toEqual([expect.objectContaining({ path: 'cursor' })]);
  });

  it('cancels an order (deliveries_terminate), which the service then reads as terminated', async () => {
    const { trackingNumber } = (await call(writer, 'deliveries_create', { order: order('mcp-cancel') })).structuredContent as { trackingNumber: string };
    const cancelled = await call(writer, 'deliveries_terminate', { trackingNumberOrOrder: trackingNumber });
    expect(cancelled.isError).toBeFalsy();
    const read = (await call(reader, 'deliveries_get', { trackingNumber })).structuredContent as { state: { code: number } };
    expect(read.state.code).toBe(DeliveryState.Terminated);
  });

  it('gives labels as a resource to read, and as a file under --out; never base64 in a text', async () => {
    const { trackingNumber } = (await call(writer, 'deliveries_create', { order: order('mcp-labels') })).structuredContent as { trackingNumber: string };
    const labels = await call(writer, 'deliveries_airway_bills', { trackingNumbers: [trackingNumber], labelOptions: { size: 'A6' } });
    const file = labels.structuredContent as { uri: string; mimeType: string; size: number; path: string };
    expect(file).toMatchObject({
      uri: expect.stringMatching(/^delivery-sdk:\/\/files\//),
      mimeType: 'application/pdf',
      path: expect.stringContaining(files.dir),
    });
    expect(labels.content).toContainEqual(expect.objectContaining({ type: 'resource_link', uri: file.uri, mimeType: 'application/pdf' }));
    for (const block of labels.content) if (block.type === 'text') expect(block.text).not.toMatch(/JVBERi0/);
    expect(readFileSync(file.path).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const read = await writer.client.readResource({ uri: file.uri });
    expect(
      Buffer.from((read.contents[0] as { blob: string }).blob, 'base64')
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    expect((await writer.client.listResources()).resources.map((resource) => resource.uri)).toContain(file.uri);
    // Another server saving into the same folder counts its files from 1 again, and writes beside them, never over them.
    const again = await connect(['--allow-writes', '--out', files.dir]);
    const second = (await call(again, 'deliveries_airway_bills', { trackingNumbers: [trackingNumber] })).structuredContent as { path: string };
    expect(second.path).not.toBe(file.path);
    expect(existsSync(file.path) && existsSync(second.path)).toBe(true);
  });

  it('waits for a state with progress notifications, within its timeout', async () => {
    const { trackingNumber } = (await call(writer, 'deliveries_create', { order: order('mcp-wait') })).structuredContent as { trackingNumber: string };
    const progress: Progress[] = [];
    const waited = writer.client.callTool(
      {
        name: 'deliveries_wait_for_state',
        arguments: { trackingNumber, options: { until: DeliveryState.RouteAssigned, pollInterval: 20, maxPollInterval: 20 } },
      },
      undefined,
      { onprogress: (update) => void progress.push(update) },
    );
    // The order moves on only once the wait has read it in its first state.
    await expect.poll(() => progress.length, { timeout: 20_000 }).toBeGreaterThan(0);
    await sandbox.advance(trackingNumber, { to: DeliveryState.RouteAssigned });
    const result = (await waited) as CallToolResult;
    answers.push(JSON.stringify(result));
    expect(result.structuredContent).toMatchObject({ trackingNumber, state: { code: DeliveryState.RouteAssigned } });
    expect(progress[0]).toMatchObject({ progress: 1, message: expect.stringContaining('state 10') });
    // An order that stays where it is: the wait ends with its timeout, an error like any.
    const { trackingNumber: staying } = (await call(writer, 'deliveries_create', { order: order('mcp-wait-2') })).structuredContent as {
      trackingNumber: string;
    };
    const timedOut = refusal(await call(writer, 'deliveries_wait_for_state', { trackingNumber: staying, options: { totalTimeout: 1_000, pollInterval: 50 } }));
    expect(timedOut).toMatchObject({ error: 'TimeoutError', mayExist: false });
  });

  it('answers a refused key as an error, and no answer, log or error carries the key', async () => {
    const stranger = await connect([], `${KEY}-unknown`);
    const refused = refusal(await call(stranger, 'deliveries_get', { trackingNumber: '70000001' }));
    expect(refused).toMatchObject({ error: 'AuthenticationError', status: 401 });
    const everything = [...answers, ...sessions.map((session) => session.stderr())].join('\n');
    expect(everything).toContain('delivery-sdk mcp: serving');
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain('MCP-KEY-6f1d93c0');
  });
});

describe('delivery-sdk mcp, the command', () => {
  it('is configured as the other commands are: the key never from an argument, nor missing, each a usage error (exit 2)', async () => {
    const help = await run(['mcp', '--help']);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('--allow-writes') });
    const argument = await run(['mcp', '--api-key', KEY], { DELIVERY_BASE_URL: server.baseUrl });
    expect(argument.code).toBe(2);
    expect(argument.stderr).toMatch(/never taken from the command line/);
    expect(argument.stderr + argument.stdout).not.toContain(KEY);
    const none = await run(['mcp'], { DELIVERY_BASE_URL: server.baseUrl });
    expect(none).toMatchObject({ code: 2, stderr: expect.stringMatching(/no API key: set DELIVERY_API_KEY or pass --api-key-file/) });
  });

  it('refuses an --out it cannot make before it serves, as the other commands do (exit 2)', async () => {
    const inTheWay = files.file('not-a-folder', 'a file');
    const serving = start(['mcp', '--sandbox', '--out', `${inTheWay}/labels`]);
    serving.child.stdin.end(); // a server that started anyway ends here, with 0
    const ran = await serving.done;
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`--out: cannot make the folder ${inTheWay}/labels: a file is in the way`);
    expect(ran.stderr).not.toContain('serving');
  });

  it('takes the key from --api-key-file as well', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--api-key-file', files.file('key.txt', `${KEY}\n`)],
      env: { DELIVERY_BASE_URL: server.baseUrl },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'delivery-sdk-tests', version: '1.0.0' });
    await client.connect(transport);
    try {
      const locations = (await client.callTool({ name: 'pickup_locations_list', arguments: {} })) as CallToolResult;
      expect((locations.structuredContent as { items: unknown[] }).items).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('ends with 0 when the assistant closes its input, and with 143 on SIGTERM', async () => {
    const closed = start(['mcp', '--sandbox']);
    await closed.waitFor(/delivery-sdk mcp: serving/);
    closed.child.stdin.end();
    expect((await closed.done).code).toBe(0);
    const stopped = start(['mcp', '--sandbox']);
    await stopped.waitFor(/delivery-sdk mcp: serving/);
    stopped.child.kill('SIGTERM');
    expect((await stopped.done).code).toBe(143);
  });
});
