/**
 * The `User-Agent` the SDK sends: `delivery-sdk/<version> (<runtime> <version>; <platform>)`, so
 * that the service (and its support) can tell the SDK's requests, and its releases, apart.
 *
 * Sent from Node.js, Deno and Bun only, each recognised by what it alone defines. A browser page
 * never sends it: `User-Agent` is not a CORS-safelisted header, so setting it would add a
 * preflight to every cross-origin call (and Chromium drops it anyway). Nor does an edge worker
 * (Cloudflare Workers, Vercel Edge): no preflight there, but nothing tells one apart from a
 * browser's Web or Service Worker short of vendor markers, and it reports no version or platform;
 * `headers: { 'user-agent': ... }` sets one there.
 */
import { SDK_VERSION } from './version.js';

interface RuntimeGlobals {
  readonly process?: { readonly versions?: { readonly node?: unknown; readonly bun?: unknown; readonly deno?: unknown }; readonly platform?: unknown };
  readonly document?: unknown;
}

/** The User-Agent a runtime with these globals sends, or undefined where none is sent (see above). */
export function userAgentOf({ process, document }: RuntimeGlobals): string | undefined {
  // Deno (2 and later) and Bun name themselves in Node's `process.versions` beside the Node.js version they match.
  const versions = process?.versions;
  // A page (Electron's renderer, whose `process` is Node's, included) is under CORS; a bundler's
  // `process` shim for browsers has no `versions.node`.
  if (document !== undefined || typeof versions?.node !== 'string') return undefined;
  const runtime =
    typeof versions.deno === 'string' ? `Deno ${versions.deno}` : typeof versions.bun === 'string' ? `Bun ${versions.bun}` : `Node.js ${versions.node}`;
  return `delivery-sdk/${SDK_VERSION} (${runtime}; ${process?.platform})`;
}

/**
 * The SDK's User-Agent in this process. Loaded with the first request, and only outside a page
 * (send.ts): a page never carries this code.
 */
export const SDK_USER_AGENT = userAgentOf(globalThis as RuntimeGlobals);
