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
  readonly Deno?: { readonly version?: { readonly deno?: unknown }; readonly build?: { readonly os?: unknown } };
  readonly process?: { readonly versions?: { readonly node?: unknown; readonly bun?: unknown }; readonly platform?: unknown };
  readonly document?: unknown;
}

/** The SDK's User-Agent with `product` (the CLI's `cli`) after it; undefined where none is sent (see above). */
export function userAgent(product: string | undefined): string | undefined {
  const { Deno, process, document } = globalThis as RuntimeGlobals;
  const versions = process?.versions;
  const deno = Deno?.version?.deno;
  // A page (Electron's renderer, whose `process` is Node's, included) is under CORS; a bundler's
  // `process` shim for browsers has no `versions.node`.
  const runtime =
    document !== undefined
      ? undefined
      : typeof deno === 'string'
        ? `Deno ${deno}; ${Deno?.build?.os}`
        : typeof versions?.bun === 'string'
          ? `Bun ${versions.bun}; ${process?.platform}`
          : typeof versions?.node === 'string'
            ? `Node.js ${versions.node}; ${process?.platform}`
            : undefined;
  return runtime && `delivery-sdk/${SDK_VERSION} (${runtime})${product === undefined ? '' : ` ${product}`}`;
}
