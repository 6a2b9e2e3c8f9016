import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { DeliveryClient } from '../client.js';
import { ConfigurationError, DeliveryError, PartialResultError, ValidationError } from '../errors/index.js';
import { isRecord } from '../internal/guards.js';
import { SDK_VERSION } from '../internal/version.js';
import { asError, byArguments, errorAnswer, JsonWriter, resultAnswer, type ToolAnswer } from './answers.js';
import { ArgumentsError, checkArguments } from './arguments.js';
import { FileShelf } from './files.js';
import { ListShelf } from './pages.js';
import type { ToolDeclaration } from './tool.js';
import { TOOLS } from './tools.js';

/** How {@link createMcpServer} serves the client. */
export interface McpServerOptions {
  /** The client the tools call: its key, base URL, retries and timeouts. */
  client: DeliveryClient;
  /**
   * Also list the operations that change something at the service: creates, updates, cancels
   * (`deliveries_terminate`), deletes. Default `false`: only the operations that read are tools.
   */
  allowWrites?: boolean | undefined;
  /**
   * Milliseconds a tool's call may take, every request of it, unless its arguments say
   * (`options.totalTimeout`, where a tool takes it). Default 50,000: an answer before the 60 s an
   * assistant usually waits for a tool.
   */
  timeout?: number | undefined;
  /**
   * Saves a file a tool gives back (a PDF of labels) besides keeping it as a resource, and says
   * where: `delivery-sdk mcp --out DIR` writes it there and answers its path.
   */
  saveFile?: ((name: string, bytes: Uint8Array) => Promise<string>) | undefined;
  /** The version the server tells its clients. Default: this package's. */
  version?: string | undefined;
}

const DEFAULT_TIMEOUT = 50_000;

const INSTRUCTIONS = `Tools of the Delivery Service API (Egypt; cash on delivery), one per operation of the delivery-sdk client: look up orders (deliveries_get, deliveries_track, deliveries_list), places (lookup_*), pickups, fees. Orders are named by their tracking number. Lists answer 50 items at a time: pass nextCursor as cursor to read on. Labels come back as resources (PDF). A refusal is a result marked isError, with its errorCode, message, hint and mayExist (true: it may have happened all the same, look it up before trying again).`;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const LIST_GONE = 'names no list this server keeps (a list is kept 10 minutes after its last page): call again without it';
/** A write's pages are the outcomes of orders sent: calling it again would send them again. */
const WRITE_OUTCOMES_GONE =
  'names no outcomes this server keeps (kept 10 minutes after their last page): do not call this tool again for the same orders, which were sent; look them up (deliveries_find_by_reference, deliveries_list)';

/**
 * An MCP server whose tools are the client's operations, one each (`deliveries_track`,
 * `pickup_locations_list`, ...), made from their declarations: the same documentation, the
 * parameters by name with the rules the SDK checks, the result as `structuredContent`. Only the
 * operations that read are tools unless `allowWrites` is set. Connect it to any transport of the
 * MCP SDK: stdio (what `delivery-sdk mcp` does), Streamable HTTP inside an application.
 *
 * A refusal or a failure is a tool result marked `isError`, never a thrown error: the server
 * stays up whatever a call does. Nothing it answers carries the client's key.
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * import { createMcpServer } from 'delivery-sdk/mcp';
 *
 * const server = createMcpServer({ client, allowWrites: false });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createMcpServer(options: McpServerOptions): Server {
  const { client, allowWrites = false, timeout = DEFAULT_TIMEOUT, saveFile, version } = options ?? ({} as McpServerOptions);
  if (client === null || typeof client !== 'object') throw new ConfigurationError('createMcpServer: expected { client }, a DeliveryClient');
  if (typeof allowWrites !== 'boolean') throw new ConfigurationError('createMcpServer: allowWrites: expected true or false');
  if (!Number.isFinite(timeout) || timeout <= 0) throw new ConfigurationError('createMcpServer: timeout: expected a number of milliseconds, more than 0');
  if (version !== undefined && (typeof version !== 'string' || version === ''))
    throw new ConfigurationError('createMcpServer: version: expected the text the server tells its clients, such as "1.4.0"');
  if (saveFile !== undefined && typeof saveFile !== 'function')
    throw new ConfigurationError('createMcpServer: saveFile: expected a function (name, bytes) => Promise<string>, answering where it saved the file');
  const tools = TOOLS.filter((tool) => allowWrites || tool.reads);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const files = new FileShelf(saveFile);
  const lists = new ListShelf();

  const server = new Server(
    { name: 'delivery-sdk', version: version ?? SDK_VERSION },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, description, inputSchema, outputSchema, annotations }) => ({ name, description, inputSchema, outputSchema, annotations })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<ToolAnswer> => {
    const tool = byName.get(request.params.name);
    if (tool === undefined) {
      const refused = TOOLS.some((candidate) => candidate.name === request.params.name)
        ? `${request.params.name} changes something at the service: the server was started read-only (--allow-writes, or allowWrites: true, lists it)`
        : `no tool ${request.params.name}`;
      return errorAnswer(new ValidationError([{ path: ['name'], message: refused }], { subject: 'Unknown tool' }), request.params.name, files);
    }
    try {
      return await call(tool, request.params.arguments, extra);
    } catch (error) {
      // The arguments' own check names them already; what the operation refuses, the SDK names within its input.
      // A write that fails with no error of the SDK's may have acted all the same: said as `mayExist`.
      const said = tool.reads ? error : asDeliveryError(error);
      return errorAnswer(said, tool.name, files, said instanceof ArgumentsError ? undefined : byArguments(tool));
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: files.list() }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const file = files.read(request.params.uri);
    // As the specification says since 2026-07-28 (SEP-2164; its revisions before recommended -32002), and as the MCP SDK's own McpServer answers.
    if (file === undefined)
      throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${request.params.uri}: files are kept in this server's memory, the last 50`, {
        uri: request.params.uri,
      });
    return { contents: [file] };
  });

  async function call(tool: ToolDeclaration, given: unknown, extra: Extra): Promise<ToolAnswer> {
    const writer = new JsonWriter(files, tool.name);
    const progress = reporter(extra);
    if (tool.answer === 'list' || tool.answer === 'many') {
      const cursor = isRecord(given) ? given['cursor'] : undefined;
      if (cursor !== undefined) {
        const page = typeof cursor === 'string' ? lists.next(tool.name, cursor, progress) : undefined;
        if (page === undefined)
          throw new ArgumentsError([{ path: ['cursor'], message: tool.reads ? LIST_GONE : WRITE_OUTCOMES_GONE }], {
            subject: `Invalid arguments of ${tool.name}`,
          });
        return resultAnswer((await writer.write(await page)) as Record<string, unknown>, writer, tool);
      }
    }
    const args = checkArguments(tool, given);
    if (args instanceof ArgumentsError) throw args;
    const own = isRecord(args['options']) ? args['options'] : {};
    const callOptions: Record<string, unknown> = { ...own, signal: extra.signal, totalTimeout: own['totalTimeout'] ?? timeout };
    if (tool.progress === true && progress !== undefined) callOptions['onProgress'] = (reported: unknown) => progress(reported);
    const [namespace, method] = tool.operation.split('.') as [string, string];
    const target = (client as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>)[namespace];
    const positional = tool.parameters.map((name) => (name === 'options' ? callOptions : args[name]));
    const operation = target?.[method];
    if (typeof operation !== 'function')
      throw new ConfigurationError(`${tool.operation} is not a method of this client: is it a DeliveryClient of this version?`);
    const called = operation.apply(target, positional);
    let structured: unknown;
    switch (tool.answer) {
      case 'many': {
        const source = called as AsyncGenerator<unknown>;
        // A read is read on as its pages are asked for; a write is run to its end (never left half done), its outcomes kept for the pages.
        const items: unknown[] = [];
        if (!tool.reads) {
          try {
            for await (const item of source) items.push(item);
          } catch (error) {
            // What the write yielded before it failed (the orders its chunks created) goes with the error, whatever was thrown: none is left untold.
            if (items.length === 0) throw error;
            throw new PartialResultError(`${tool.operation} failed after ${items.length} of its outcomes`, {
              partial: { items },
              cause: asDeliveryError(error),
            });
          }
        }
        structured = await lists.first(tool.name, tool.reads ? source : items[Symbol.iterator](), tool.reads ? progress : undefined);
        break;
      }
      case 'list':
        structured = await lists.first(tool.name, ((await called) as unknown[])[Symbol.iterator]());
        break;
      case 'none':
        await called;
        structured = {};
        break;
      case 'wrapped':
        structured = { result: await called };
        break;
      default:
        structured = await called;
    }
    return resultAnswer((await writer.write(structured)) as Record<string, unknown>, writer, tool);
  }

  return server;
}

/**
 * A throw of a write that is no error of the SDK (a bug, a client's method replaced), as one: it
 * says nothing of what the write did before it, so that may have happened (`mayExist`).
 */
function asDeliveryError(thrown: unknown): DeliveryError {
  if (thrown instanceof DeliveryError) return thrown;
  const { name, message } = asError(thrown);
  const error = new DeliveryError(`${name}: ${message}`, { cause: thrown });
  (error as { mayExist: boolean }).mayExist = true;
  return error;
}

/**
 * Progress notifications for the call, when its client asked for them (a `progressToken`): each
 * report of the operation (`{ reads, state }` of a wait, `{ done, total }` of a bulk upload), or
 * a count of the items read.
 */
function reporter(extra: Extra): ((reported: unknown) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let count = 0;
  return (reported) => {
    count += 1;
    const fields = isRecord(reported) ? reported : { read: reported };
    const done = [fields['done'], fields['reads'], fields['read']].find((value) => typeof value === 'number') as number | undefined;
    const total = typeof fields['total'] === 'number' ? fields['total'] : undefined;
    const message = Object.entries(fields)
      .filter(([, value]) => typeof value === 'number' || typeof value === 'string')
      .map(([key, value]) => `${key} ${String(value)}`)
      .join(', ');
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: done ?? count, ...(total === undefined ? {} : { total }), message },
      })
      .catch(() => undefined);
  };
}
