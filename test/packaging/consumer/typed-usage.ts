// What a user's TypeScript project writes against the installed package, type-checked there with
// the module resolutions users configure. Kept as text: this repository's own type-check must not
// depend on dist/ (it runs before the build).
//
// The `@ts-expect-error` lines prove the declarations are real: if an entry resolved to `any`, the
// expected error would not happen and tsc would fail on the unused directive.

/** A server or browser app: the main entry, webhooks and the Node adapter, without msw anywhere. */
export const CLIENT_USAGE = `
import {
  DeliveryClient,
  DeliveryError,
  DeliveryState,
  DeliveryType,
  ErrorCode,
  isDeliveryError,
  type CodLimitExceededError,
  type DeliverOrder,
  type DeliveryOrder,
} from 'delivery-sdk';
import { validateOrder } from 'delivery-sdk/validation';
import { createOrderTracker, createWebhookHandler, parseWebhookEvent, type WebhookEvent } from 'delivery-sdk/webhooks';
import { createNodeWebhookHandler } from 'delivery-sdk/webhooks/node';

const order: DeliverOrder = {
  type: DeliveryType.Deliver,
  dropOffAddress: { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street' },
  receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
  cod: 250,
};

// @ts-expect-error a Deliver order needs its drop-off address
export const incomplete: DeliveryOrder = { type: DeliveryType.Deliver, cod: 250 };

export const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: 'key', timeout: 5_000, maxRetries: 1 });

export async function send(): Promise<string> {
  const created = await client.request<{ trackingNumber: string }>({ method: 'POST', path: '/deliveries', query: { apiVersion: 1 }, body: order });
  return created.trackingNumber;
}

export function codProblem(input: unknown): string | undefined {
  try {
    validateOrder(input);
    return undefined;
  } catch (error) {
    if (isDeliveryError(error, ErrorCode.CodLimitExceeded)) {
      const narrowed: CodLimitExceededError = error;
      return narrowed.message;
    }
    if (error instanceof DeliveryError) return error.message;
    throw error;
  }
}

export function collected(body: unknown): number {
  const event: WebhookEvent = parseWebhookEvent(body);
  if (event.state === DeliveryState.Delivered) return event.cod;
  // @ts-expect-error only a Delivered event carries the collected cash
  const cod: number = event.cod;
  return cod;
}

export const onWebhook: (request: Request) => Promise<Response> = createWebhookHandler({ auth: { name: 'X-Auth', value: 'secret' } });
export const nodeWebhook = createNodeWebhookHandler();
export const tracker = createOrderTracker();
`;

/** A test suite of the user's own, against the sandbox, with no msw installed (it is an optional peer). */
export const SANDBOX_USAGE = `
import { DeliveryClient } from 'delivery-sdk';
import { createSandbox, type Sandbox } from 'delivery-sdk/testing';

export const sandbox: Sandbox = createSandbox({ apiKey: 'test-key' });
export const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch });

export async function serve(): Promise<string> {
  const server = await sandbox.listen({ port: 0 });
  await server.close();
  return server.baseUrl;
}

// @ts-expect-error the sandbox's API key is a string
export const wrong: number = sandbox.apiKey;
`;

/** The same suite on msw's \`setupServer\` (its users have msw installed). */
export const MSW_USAGE = `
import { createSandbox } from 'delivery-sdk/testing';
import { sandboxHandlers } from 'delivery-sdk/testing/msw';
import type { HttpHandler } from 'msw';

export const handlers: HttpHandler[] = sandboxHandlers(createSandbox());

// @ts-expect-error the handlers need a sandbox, not its URL
sandboxHandlers('https://sandbox.delivery-sdk.test/v2');
`;

/** An assistant's server from `delivery-sdk/mcp`, typed by the MCP SDK's own declarations (its optional peer, present). */
export const MCP_USAGE = `
import { DeliveryClient } from 'delivery-sdk';
import { createMcpServer, type McpServerOptions, TOOLS, type ToolDeclaration } from 'delivery-sdk/mcp';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: 'key' });
const options: McpServerOptions = { client, allowWrites: false, timeout: 30_000 };
export const server: Server = createMcpServer(options);
export const readOnly: ToolDeclaration[] = TOOLS.filter((tool) => tool.annotations.readOnlyHint);

// @ts-expect-error a server serves a client's operations: it needs one
createMcpServer({ allowWrites: true });
`;

/** The same usage under each module resolution users configure, as `[file name, tsconfig compilerOptions]`. */
export const RESOLUTIONS: Record<string, { files: string[]; compilerOptions: Record<string, unknown> }> = {
  // Node ESM and CommonJS in one program: `.mts` resolves the import conditions, `.cts` the require ones.
  node16: { files: ['usage.mts', 'usage.cts'], compilerOptions: { module: 'node16', moduleResolution: 'node16', lib: ['ES2022'], types: ['node'] } },
  // Vite, webpack, esbuild and friends, with the DOM library of a browser page.
  bundler: { files: ['usage.ts'], compilerOptions: { module: 'esnext', moduleResolution: 'bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: ['node'] } },
  // The legacy `"moduleResolution": "node"` many CommonJS projects still have (via typesVersions).
  node10: { files: ['usage.ts'], compilerOptions: { module: 'commonjs', moduleResolution: 'node10', lib: ['ES2022', 'DOM'], types: ['node'] } },
};

/** Options every consumer tsconfig shares: as strict as this repository, declarations checked too. */
export const STRICT_OPTIONS = {
  target: 'ES2022',
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  // TypeScript's own lib files are not under test (this package's declarations, @types/node and
  // the user's code are), and checking them is half of each run's time.
  skipDefaultLibCheck: true,
  noEmit: true,
};
