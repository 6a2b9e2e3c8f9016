/**
 * `delivery-sdk/webhooks/redis`: a store for `createOrderTracker` in Redis, so that every instance
 * of a webhook route shares one history per order. Bring your own client, `ioredis` or node-redis
 * (`redis`); this entry imports neither.
 *
 * @module delivery-sdk/webhooks/redis
 */
import { ConfigurationError } from '../errors/base.js';
import type { OrderTrackerStore, StoredEvent } from './tracker.js';

export { TrackerStoreError } from './errors.js';
export type { OrderTrackerStore, StoredEvent } from './tracker.js';

/** The part of an `ioredis` client (`new Redis()`, `new Redis.Cluster()`) the store uses. */
export interface IoredisClientLike {
  /** EVALSHA: runs a script the server has cached. */
  evalsha(sha: string, numberOfKeys: number, ...keysAndArguments: string[]): Promise<unknown>;
  /** EVAL: sends the script's text (and caches it on the server). */
  eval(script: string, numberOfKeys: number, ...keysAndArguments: string[]): Promise<unknown>;
}

/** The part of a node-redis client (`createClient()`, `createCluster()`, version 4 and later) the store uses. */
export interface NodeRedisClientLike {
  /** EVALSHA: runs a script the server has cached. */
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** EVAL: sends the script's text (and caches it on the server). */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Options of {@link createRedisTrackerStore}. */
export interface RedisTrackerStoreOptions {
  /** A connected `ioredis` or node-redis client. Make it fail fast while Redis is away (see the docs), or webhooks wait for it. */
  readonly client: IoredisClientLike | NodeRedisClientLike;
  /** Prepended to every key, e.g. `'shop:tracker:'`. Default `'delivery-sdk:tracker:'`. */
  readonly keyPrefix?: string | undefined;
  /** An order's keys expire this long after its last event (a repeat counts). Default 30 days. */
  readonly ttlSeconds?: number | undefined;
}

/** Long enough for every repeat the service sends and for the gaps of an order's return trip. */
export const DEFAULT_TRACKER_TTL_SECONDS = 30 * 24 * 60 * 60;

// One sorted set per order. Each event is two members: its body at its timeStamp, after the
// order's arrival number zero-padded (so that events of the same timeStamp sort in arrival order
// and the latest event is the last member), and its id at score -inf, marking it as seen.
const ARRIVAL_DIGITS = 12;

/** One event, atomically: KEYS order; ARGV id, timeStamp, body, ttl. Answers { 1 if a repeat, the previous latest member or '' }. */
const RECORD = `
local latest = redis.call('ZRANGE', KEYS[1], -1, -1)[1] or ''
local duplicate = redis.call('ZADD', KEYS[1], 'NX', '-inf', '=' .. ARGV[1]) == 0
if not duplicate then
  local arrival = redis.call('ZCARD', KEYS[1])
  redis.call('ZADD', KEYS[1], ARGV[2], string.format('%0${ARRIVAL_DIGITS}d', arrival) .. ARGV[3])
end
redis.call('EXPIRE', KEYS[1], ARGV[4])
return { duplicate and 1 or 0, latest }
`;
const CURRENT = `return redis.call('ZRANGE', KEYS[1], -1, -1)[1] or ''`;
// '(-inf': every body, none of the ids.
const HISTORY = `return redis.call('ZRANGE', KEYS[1], '(-inf', '+inf', 'BYSCORE')`;
const FORGET = `return redis.call('DEL', KEYS[1])`;

/**
 * A tracker store in Redis: pass it to `createOrderTracker({ store })`. Each `track` is one Lua
 * script on the server (look the event up, insert it by `timeStamp`, answer the order's previous
 * latest event), so instances that receive the same order's events at once, in any order, agree
 * on its current state, and each event is reported `changed` to one of them at most.
 *
 * One key per order, `<keyPrefix><trackingNumber>`, expiring `ttlSeconds` after the order's
 * last event. A Redis error reaches you as a `TrackerStoreError` (from the tracker).
 *
 * @throws {ConfigurationError} at once, when `client` is neither an ioredis nor a node-redis
 * client, or `ttlSeconds` is not a positive whole number.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { createOrderTracker } from 'delivery-sdk/webhooks';
 * import { createRedisTrackerStore } from 'delivery-sdk/webhooks/redis';
 *
 * const tracker = createOrderTracker({ store: createRedisTrackerStore({ client: new Redis(process.env.REDIS_URL!) }) });
 * const { stale, current } = await tracker.track(event);
 * ```
 */
export function createRedisTrackerStore(options: RedisTrackerStoreOptions): OrderTrackerStore {
  const run = scriptRunner(options?.client);
  const keyPrefix = options.keyPrefix ?? 'delivery-sdk:tracker:';
  if (typeof keyPrefix !== 'string') throw new ConfigurationError(`keyPrefix: expected a string, received ${typeof keyPrefix}`);
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_TRACKER_TTL_SECONDS;
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds <= 0) throw new ConfigurationError(`ttlSeconds: expected a positive whole number of seconds, received ${String(ttlSeconds)}`);
  const key = (trackingNumber: string): string[] => [keyPrefix + trackingNumber];

  return {
    async record(event: StoredEvent) {
      const reply = await run(RECORD, key(event.trackingNumber), [event.id, String(event.timeStamp), event.body, String(ttlSeconds)]);
      if (!Array.isArray(reply) || reply.length !== 2) throw new Error(`unexpected reply to the record script: ${describe(reply)}`);
      return { duplicate: Number(reply[0]) === 1, previous: body(reply[1]) };
    },
    current: async (trackingNumber) => body(await run(CURRENT, key(trackingNumber), [])),
    async history(trackingNumber) {
      const reply = await run(HISTORY, key(trackingNumber), []);
      if (!Array.isArray(reply)) throw new Error(`unexpected reply to the history script: ${describe(reply)}`);
      return reply.map((member) => body(member) as string);
    },
    forget: async (trackingNumber) => Number(await run(FORGET, key(trackingNumber), [])) > 0,
  };
}

type ScriptRunner = (script: string, keys: string[], args: string[]) => Promise<unknown>;

/**
 * Runs a script by its SHA-1 (EVALSHA), sending its text (EVAL) only when this server does not
 * have it cached yet (NOSCRIPT): after a restart, a failover, or on each node of a cluster.
 */
function scriptRunner(client: unknown): ScriptRunner {
  const candidate = client as Partial<IoredisClientLike & NodeRedisClientLike> | null | undefined;
  let byHash: (sha: string, keys: string[], args: string[]) => Promise<unknown>;
  let byText: ScriptRunner;
  if (typeof candidate?.evalSha === 'function' && typeof candidate.eval === 'function') {
    const nodeRedis = candidate as NodeRedisClientLike;
    byHash = (sha, keys, args) => nodeRedis.evalSha(sha, { keys, arguments: args });
    byText = (script, keys, args) => nodeRedis.eval(script, { keys, arguments: args });
  } else if (typeof candidate?.evalsha === 'function' && typeof candidate.eval === 'function') {
    const ioredis = candidate as IoredisClientLike;
    byHash = (sha, keys, args) => ioredis.evalsha(sha, keys.length, ...keys, ...args);
    byText = (script, keys, args) => ioredis.eval(script, keys.length, ...keys, ...args);
  } else {
    throw new ConfigurationError('client: expected an ioredis client (with evalsha) or a node-redis client (with evalSha)');
  }
  const hashes = new Map<string, string>();
  return async (script, keys, args) => {
    let hash = hashes.get(script);
    if (hash === undefined) hashes.set(script, (hash = await sha1(script)));
    try {
      return await byHash(hash, keys, args);
    } catch (err) {
      // NOSCRIPT: the server ran nothing, so sending the text cannot run the script twice.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return byText(script, keys, args);
    }
  };
}

/** Web Crypto, not node:crypto: the entry then bundles for any runtime a Redis client runs on. */
async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A member's body (after its arrival number), or `undefined` for the scripts' '' (no event). */
function body(member: unknown): string | undefined {
  const text = typeof member === 'string' ? member : member instanceof Uint8Array ? new TextDecoder().decode(member) : undefined;
  if (text === undefined) throw new Error(`unexpected reply from Redis: ${describe(member)}`);
  return text === '' ? undefined : text.slice(ARRIVAL_DIGITS);
}

function describe(value: unknown): string {
  return Array.isArray(value) ? `an array of ${value.length}` : value === null ? 'null' : typeof value;
}
