// The two Redis clients the store supports, each set up the way the docs recommend for a webhook
// route: while Redis is away, a command fails at once (the handler answers 500 and the service
// delivers again) instead of waiting in the client's queue; the client reconnects by itself.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import type { IoredisClientLike, NodeRedisClientLike } from '../../../src/webhooks/redis.js';

export type ClientName = 'ioredis' | 'node-redis';
export const CLIENT_NAMES: readonly ClientName[] = ['ioredis', 'node-redis'];

export interface ConnectedClient {
  readonly client: IoredisClientLike | NodeRedisClientLike;
  /** A plain SET, for the bench and for comparisons. */
  set(key: string, value: string): Promise<unknown>;
  /** Seconds until the key expires (-2: no key, -1: no expiry). */
  ttl(key: string): Promise<number>;
  close(): Promise<void>;
}

export async function connect(name: ClientName, port: number): Promise<ConnectedClient> {
  if (name === 'ioredis') {
    const client = new Redis({
      host: '127.0.0.1',
      port,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(times * 50, 500),
    });
    client.on('error', () => {}); // reported through the commands' rejections
    await client.connect();
    return {
      client,
      set: (key, value) => client.set(key, value),
      ttl: (key) => client.ttl(key),
      close: async () => {
        client.disconnect();
      },
    };
  }
  const client = createClient({
    url: `redis://127.0.0.1:${port}`,
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries) => Math.min(retries * 50, 500), connectTimeout: 5_000 },
  });
  client.on('error', () => {}); // reported through the commands' rejections
  await client.connect();
  return {
    client,
    set: (key, value) => client.set(key, value),
    ttl: (key) => client.ttl(key),
    close: async () => {
      client.destroy();
    },
  };
}

/**
 * A client as a server creates it at start (the docs' set-up): told to connect, not connected yet.
 * `port` may have nothing listening: the client then keeps trying.
 */
export function startConnecting(name: ClientName, port: number): { readonly client: IoredisClientLike | NodeRedisClientLike; close(): void } {
  if (name === 'ioredis') {
    const client = new Redis({
      host: '127.0.0.1',
      port,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(times * 50, 500),
    });
    client.on('error', () => {});
    return { client, close: () => client.disconnect() };
  }
  const client = createClient({
    url: `redis://127.0.0.1:${port}`,
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries) => Math.min(retries * 50, 500) },
  });
  client.on('error', () => {});
  client.connect().catch(() => {});
  return { client, close: () => client.destroy() };
}

/** What {@link watched} changes of the client it wraps. */
export interface Watching {
  /** Shown as a cluster client (ioredis `isCluster`). */
  readonly cluster?: boolean;
  /** Shown as an ioredis client with `enableAutoPipelining` (its `options`). */
  readonly autoPipelining?: boolean;
  /** The error the server's proxy answers a script of these keys with, instead of running it. */
  readonly refuse?: (keys: readonly string[]) => Error | undefined;
}

/**
 * `client` as the store sees it, with every script call's keys written down (in `scripts`, in the
 * order sent) and `hold()` keeping the next scripts from Redis until `release()`.
 */
export function watched(client: IoredisClientLike | NodeRedisClientLike, watching: Watching = {}) {
  const scripts: string[][] = [];
  let held: Promise<void> | undefined;
  let release = (): void => {};
  const pass = async <T>(keys: string[], send: () => Promise<T>): Promise<T> => {
    scripts.push(keys);
    await held;
    const refusal = watching.refuse?.(keys);
    if (refusal !== undefined) throw refusal;
    return send();
  };
  let shown: IoredisClientLike | NodeRedisClientLike;
  if ('evalSha' in client) {
    const nodeRedis: NodeRedisClientLike = {
      evalSha: (sha, options) => pass(options.keys, () => client.evalSha(sha, options)),
      eval: (script, options) => pass(options.keys, () => client.eval(script, options)),
    };
    shown = nodeRedis;
  } else {
    const ioredis: IoredisClientLike = {
      evalsha: (sha, count, ...rest) => pass(rest.slice(0, count), () => client.evalsha(sha, count, ...rest)),
      eval: (script, count, ...rest) => pass(rest.slice(0, count), () => client.eval(script, count, ...rest)),
    };
    shown = ioredis;
  }
  if (watching.cluster === true) Object.assign(shown, { isCluster: true });
  if (watching.autoPipelining === true) Object.assign(shown, { options: { enableAutoPipelining: true } });
  return {
    client: shown,
    scripts,
    hold(): void {
      held = new Promise((resolve) => {
        release = resolve;
      });
    },
    release(): void {
      held = undefined;
      release();
    },
  };
}
