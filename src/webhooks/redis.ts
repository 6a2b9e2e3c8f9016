/**
 * `delivery-sdk/webhooks/redis`: a store for `createOrderTracker` in Redis, so that every instance
 * of a webhook route shares one history per order. Bring your own client, `ioredis` or node-redis
 * (`redis`); this entry imports neither.
 *
 * @module delivery-sdk/webhooks/redis
 */

import { ConfigurationError } from '../errors/base.js';
import { shown } from '../internal/guards.js';
import type { OrderTrackerStore, StoredEvent } from './tracker.js';

export { TrackerStoreError } from './errors.js';
export type { OrderTrackerStore, StoredEvent } from './tracker.js';

/** The part of an `ioredis` client (`new Redis()`, `new Redis.Cluster()`) the store uses. */
export interface IoredisClientLike {
  /** `'connecting'`, `'connect'` or `'reconnecting'`: the store waits for `'ready'` (see {@link RedisTrackerStoreOptions.readyTimeoutMs}). */
  readonly status?: string | undefined;
  /** EVALSHA: runs a script the server has cached. */
  evalsha(sha: string, numberOfKeys: number, ...keysAndArguments: string[]): Promise<unknown>;
  /** EVAL: sends the script's text (and caches it on the server). */
  eval(script: string, numberOfKeys: number, ...keysAndArguments: string[]): Promise<unknown>;
}

/** The part of a node-redis client (`createClient()`, `createCluster()`, version 4 and later) the store uses. */
export interface NodeRedisClientLike {
  /** With `isReady`: a client open but not ready is connecting, and the store waits for it. */
  readonly isOpen?: boolean | undefined;
  readonly isReady?: boolean | undefined;
  /** EVALSHA: runs a script the server has cached. */
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** EVAL: sends the script's text (and caches it on the server). */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Options of {@link createRedisTrackerStore}. */
export interface RedisTrackerStoreOptions {
  /** An `ioredis` or node-redis client. Make it fail fast while Redis is away (see the docs), or webhooks wait for it. */
  readonly client: IoredisClientLike | NodeRedisClientLike;
  /**
   * The tracker's own namespace, prepended to every key: non-empty and ending in `':'`, e.g.
   * `'shop:tracker:'` (`'delivery-sdk:tracker:'` was the default before it was required). Every
   * key the store reads or deletes starts with it, whatever tracking number a caller passes.
   */
  readonly keyPrefix: string;
  /** An order's keys expire this long after its last event (a repeat counts). Default 30 days. */
  readonly ttlSeconds?: number | undefined;
  /**
   * How long a call waits for a client that is still connecting (at start, or reconnecting) before
   * it fails; a client that is ready, or not connecting at all, is used at once. Default 2000.
   */
  readonly readyTimeoutMs?: number | undefined;
  /**
   * At most this many events in one script. Events that arrive together, or while the store's last
   * script is on its way, go in one script (each its own atomic step, in order of arrival), so a
   * burst costs Redis and the client one call per this many events. Default 100, about a
   * millisecond of Redis's thread. With ioredis, which writes each command to Redis as it is made,
   * a burst's first script goes as soon as 10 of its events wait, the next at 20, then 40, and so
   * on up to this: Redis runs them while the app goes on with the burst's next events. A cluster
   * client always sends one event per script. Set 1 behind a proxy that spreads keys over several
   * servers and routes a script by its first key without refusing the others (twemproxy, Envoy's
   * Redis proxy): one script must reach every key it names.
   */
  readonly maxEventsPerScript?: number | undefined;
}

/** Long enough for a client created at start to connect, short enough for the service's webhook time-out. */
export const DEFAULT_READY_TIMEOUT_MS = 2_000;

/** Long enough for every repeat the service sends and for the gaps of an order's return trip. */
export const DEFAULT_TRACKER_TTL_SECONDS = 30 * 24 * 60 * 60;

/** About a millisecond of Redis's one thread: a burst never holds up the app's other commands for longer. */
export const DEFAULT_MAX_EVENTS_PER_SCRIPT = 100;

/**
 * With a client that writes each command as it is made (ioredis, without `enableAutoPipelining`),
 * a burst's first script goes as soon as this many events wait, so that Redis starts on it while
 * the app prepares the others; each next one waits for twice as many, while Redis is busy with the
 * last (a script per ten events kept Redis as busy, at more calls).
 */
const FIRST_SCRIPT_EVENTS = 10;

// One sorted set per order. Each event is two members: `<sortKey> <body>` at its timeStamp (Redis
// orders members of one score by their bytes, so events of the same timeStamp sort by sortKey and
// the latest event is the last member), and its id at score -inf, marking it as seen.

/**
 * Events, each atomically, in order: KEYS one order per event; ARGV ttl, then per event its id,
 * timeStamp and member (`<sortKey> <body>`). Answers one number per event, `version * 4 +
 * (duplicate ? 2 : 0) + (previous ? 1 : 0)`, followed by the previous latest member when there is
 * one; or -1 followed by Redis's refusal. A key that is not a sorted set is refused at its first
 * read, before anything is written to it, and the other events are recorded. An order's first
 * event (no key yet) takes three commands instead of five, and its answer is one number.
 * Numbers go to Redis as strings: Lua would format each one with sprintf.
 */
const RECORD = `
local answers, n = {}, 0
for i, key in ipairs(KEYS) do
  local at, latest = 3 * i - 1, redis.pcall('ZRANGE', key, '-1', '-1')
  if latest.err then
    answers[n + 1], answers[n + 2], n = -1, latest.err, n + 2
  elseif latest[1] == nil then
    -- A new order: nothing to look up, both members in one command, its version 1.
    redis.call('ZADD', key, '-inf', '=' .. ARGV[at], ARGV[at + 1], ARGV[at + 2])
    redis.call('EXPIRE', key, ARGV[1])
    answers[n + 1], n = 4, n + 1
  else
    local duplicate = redis.call('ZADD', key, 'NX', '-inf', '=' .. ARGV[at]) == 0
    if not duplicate then
      redis.call('ZADD', key, ARGV[at + 1], ARGV[at + 2])
    end
    redis.call('EXPIRE', key, ARGV[1])
    answers[n + 1] = math.floor(redis.call('ZCARD', key) / 2) * 4 + (duplicate and 3 or 1)
    answers[n + 2], n = latest[1], n + 2
  end
end
return answers
`;
const CURRENT = `return redis.call('ZRANGE', KEYS[1], '-1', '-1')[1] or ''`;
// '(-inf': every body, none of the ids.
const HISTORY = `return redis.call('ZRANGE', KEYS[1], '(-inf', '+inf', 'BYSCORE')`;
const FORGET = `return redis.call('DEL', KEYS[1])`;

/**
 * A tracker store in Redis: pass it to `createOrderTracker({ store })`. Each `track` is one atomic
 * step of a Lua script on the server (look the event up, insert it by `timeStamp`, answer the
 * order's previous latest event), so instances that receive the same order's events at once, in
 * any order, agree on its current state, and each event is reported `changed` to one of them at
 * most. Events that arrive together share one script and one round trip (`maxEventsPerScript`).
 *
 * One key per order, `<keyPrefix><trackingNumber>`, expiring `ttlSeconds` after the order's
 * last event. A Redis error reaches you as a `TrackerStoreError` (from the tracker).
 *
 * A call made while the client is still connecting (the first webhook after a cold start) waits
 * for it, up to `readyTimeoutMs`; a client that is not connecting fails (or queues) as it is set to.
 *
 * @throws `ConfigurationError` at once, when `client` is neither an ioredis nor a node-redis
 * client, `keyPrefix` is missing, empty or does not end in `':'`, or `ttlSeconds`,
 * `readyTimeoutMs` or `maxEventsPerScript` is not a positive whole number.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { createOrderTracker } from 'delivery-sdk/webhooks';
 * import { createRedisTrackerStore } from 'delivery-sdk/webhooks/redis';
 *
 * const redis = new Redis(process.env.REDIS_URL!);
 * redis.on('error', (err) => console.error('redis', err.message)); // reconnects by itself
 * const tracker = createOrderTracker({ store: createRedisTrackerStore({ client: redis, keyPrefix: 'shop:tracker:' }) });
 * const { stale, current } = await tracker.track(event);
 * ```
 */
export function createRedisTrackerStore(options: RedisTrackerStoreOptions): OrderTrackerStore {
  const client = options?.client;
  const run = scriptRunner(client, positiveWhole(options?.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS, 'readyTimeoutMs', 'milliseconds'));
  const keyPrefix: unknown = options.keyPrefix;
  // Empty, `forget('session:victim')` would delete an app's own key; unseparated, a prefix 'sess' would reach it too.
  if (typeof keyPrefix !== 'string' || keyPrefix.length < 2 || !keyPrefix.endsWith(':')) {
    const received = typeof keyPrefix === 'string' ? JSON.stringify(keyPrefix) : typeof keyPrefix;
    throw new ConfigurationError(`keyPrefix: expected the tracker's own namespace, ending in ':' (e.g. 'shop:tracker:'), received ${received}`);
  }
  const ttlSeconds = positiveWhole(options.ttlSeconds ?? DEFAULT_TRACKER_TTL_SECONDS, 'ttlSeconds', 'seconds');
  const maxEventsPerScript = positiveWhole(options.maxEventsPerScript ?? DEFAULT_MAX_EVENTS_PER_SCRIPT, 'maxEventsPerScript', 'events');
  const key = (trackingNumber: string): string[] => [keyPrefix + trackingNumber];

  return {
    record: recorder(run, keyPrefix, String(ttlSeconds), isCluster(client) ? 1 : maxEventsPerScript, writesAtOnce(client)),
    current: async (trackingNumber) => body(await run(CURRENT, key(trackingNumber), [])),
    async history(trackingNumber) {
      const reply = await run(HISTORY, key(trackingNumber), []);
      if (!Array.isArray(reply)) throw new Error(`unexpected reply to the history script: ${shown(reply)}`);
      return reply.map((member) => body(member) as string);
    },
    forget: async (trackingNumber) => Number(await run(FORGET, key(trackingNumber), [])) > 0,
  };
}

type Recorded = Awaited<ReturnType<OrderTrackerStore['record']>>;

interface Waiting {
  readonly event: StoredEvent;
  resolve(recorded: Recorded): void;
  reject(error: unknown): void;
}

/**
 * `record` in as few scripts as the client allows, up to `limit` events a script: the events of one
 * turn of the event loop go together at its end, and those that arrive while this store's scripts
 * are on their way go together when they answer. An event alone goes at once. Through a client
 * that writes each command as it is made (`writesAtOnce`), a script goes as soon as
 * {@link FIRST_SCRIPT_EVENTS} wait, then twice as many, up to `limit`: Redis works through a burst
 * while the app is still taking it in. Each event stays one atomic step, in the order it arrived.
 * With `limit` 1 (a cluster, whose keys live on different nodes) each event goes at once in its own
 * script; so it becomes for a client that turns out to be behind a proxy refusing keys of
 * different slots in one script (CROSSSLOT).
 */
function recorder(run: ScriptRunner, keyPrefix: string, ttl: string, limit: number, writesAtOnce: boolean): OrderTrackerStore['record'] {
  const waiting: Waiting[] = [];
  const send = async (batch: readonly Waiting[]): Promise<void> => {
    const keys: string[] = [];
    const args = [ttl];
    for (const { event } of batch) {
      keys.push(keyPrefix + event.trackingNumber);
      args.push(event.id, String(event.timeStamp), `${event.sortKey} ${event.body}`);
    }
    let reply: unknown;
    try {
      reply = await run(RECORD, keys, args);
      if (!Array.isArray(reply)) throw new Error(`unexpected reply to the record script: ${shown(reply)}`);
    } catch (err) {
      // CROSSSLOT: the script ran for none of them.
      if (batch.length > 1 && err instanceof Error && err.message.startsWith('CROSSSLOT')) {
        limit = 1;
        await Promise.all(batch.map((one) => send([one])));
      } else for (const { reject } of batch) reject(err);
      return;
    }
    answerEach(batch, reply);
  };
  // How many waiting events make a script go at once: a burst's first, then doubling.
  const firstEarly = (): number => (writesAtOnce ? Math.min(FIRST_SCRIPT_EVENTS, limit) : limit);
  let early = firstEarly();
  let busy = false;
  let sentEarly: Array<Promise<void>> = [];
  const sendWaiting = (): void => {
    early = firstEarly();
    const round = sentEarly;
    sentEarly = [];
    while (waiting.length > 0) round.push(send(waiting.splice(0, limit)));
    if (round.length === 0) busy = false;
    else void Promise.allSettled(round).then(sendWaiting);
  };
  return (event) =>
    new Promise<Recorded>((resolve, reject) => {
      if (limit === 1) return void send([{ event, resolve, reject }]);
      waiting.push({ event, resolve, reject });
      if (waiting.length >= early) {
        sentEarly.push(send(waiting.splice(0, early)));
        early = Math.min(2 * early, limit);
      }
      if (busy) return;
      // The events of this turn of the event loop go with it.
      busy = true;
      queueMicrotask(sendWaiting);
    });
}

/** Settles each event of `batch` from the record script's `reply` (see {@link RECORD}). */
function answerEach(batch: readonly Waiting[], reply: readonly unknown[]): void {
  let at = 0;
  const unexpected = (): Error => new Error(`unexpected reply to the record script: ${shown(reply)}`);
  for (const { resolve, reject } of batch) {
    const answer = Number(reply[at++]);
    try {
      if (answer === -1) {
        const refusal = reply[at++];
        throw new Error(typeof refusal === 'string' ? refusal : shown(refusal));
      }
      if (!Number.isSafeInteger(answer) || answer < 0) throw unexpected();
      resolve({ duplicate: (answer & 2) === 2, previous: answer & 1 ? body(reply[at++]) : undefined, version: Math.floor(answer / 4) });
    } catch (err) {
      reject(err);
    }
  }
}

/** An ioredis client writes each command to its socket as it is made; node-redis, or ioredis with `enableAutoPipelining`, once per turn. */
function writesAtOnce(client: unknown): boolean {
  const candidate = client as { evalsha?: unknown; options?: { enableAutoPipelining?: unknown } };
  return typeof candidate.evalsha === 'function' && candidate.options?.enableAutoPipelining !== true;
}

/** An ioredis `Cluster` or a node-redis cluster (`createCluster()`, every version has `getSlotMaster`): each order's key may live on another node. */
function isCluster(client: unknown): boolean {
  const candidate = client as { isCluster?: unknown; getSlotMaster?: unknown };
  return candidate.isCluster === true || typeof candidate.getSlotMaster === 'function';
}

function positiveWhole(value: unknown, option: string, unit: string): number {
  if (!Number.isSafeInteger(value) || (value as number) <= 0) {
    throw new ConfigurationError(`${option}: expected a positive whole number of ${unit}, received ${String(value)}`);
  }
  return value as number;
}

type ScriptRunner = (script: string, keys: string[], args: string[]) => Promise<unknown>;

const CONNECTING = new Set(['connecting', 'connect', 'reconnecting']);

/** Whether the client is on its way to ready: then a command sent now fails (no offline queue) or waits in its queue. */
function isConnecting(client: Partial<IoredisClientLike & NodeRedisClientLike>): boolean {
  if (typeof client.status === 'string') return CONNECTING.has(client.status);
  return client.isOpen === true && client.isReady === false;
}

/** Resolves once the client is no longer connecting; rejects after `timeoutMs`. Polls: both clients, no listeners left behind. */
async function untilConnected(client: Partial<IoredisClientLike & NodeRedisClientLike>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isConnecting(client)) {
    if (Date.now() >= deadline) {
      const state = typeof client.status === 'string' ? client.status : 'open, not ready';
      throw new Error(`the Redis client is still connecting after ${timeoutMs} ms (${state}); readyTimeoutMs sets how long a call waits`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Runs a script by its SHA-1 (EVALSHA), sending its text (EVAL) only when this server does not
 * have it cached yet (NOSCRIPT): after a restart, a failover, or on each node of a cluster.
 */
function scriptRunner(client: unknown, readyTimeoutMs: number): ScriptRunner {
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
  // One digest per script, however many calls wait for it.
  const hashing = new Map<string, Promise<string>>();
  const byHashOrText = (hash: string, script: string, keys: string[], args: string[]): Promise<unknown> => {
    let sent: Promise<unknown>;
    try {
      sent = byHash(hash, keys, args);
    } catch (err) {
      return Promise.reject(err);
    }
    // NOSCRIPT: the server ran nothing, so sending the text cannot run the script twice.
    return sent.catch((err: unknown) => {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return byText(script, keys, args);
    });
  };
  // The calls parked until the client is ready and the script's digest known go out in the order
  // they came, each once the one before it was written (each waiting on its own for the client, a
  // later one could be written first), and no call goes straight out while one is parked.
  let parked = 0;
  let turn: Promise<void> = Promise.resolve();
  const later = (script: string, keys: string[], args: string[]): Promise<unknown> => {
    parked++;
    const before = turn;
    let written = (): void => {};
    turn = new Promise((resolve) => (written = resolve));
    // Each call's wait for the client counts from its own arrival, not from the one before's end.
    const ready = untilConnected(candidate as object, readyTimeoutMs);
    ready.catch(() => undefined);
    return (async () => {
      try {
        await before;
        await ready;
        let hash = hashes.get(script);
        if (hash === undefined) {
          let pending = hashing.get(script);
          if (pending === undefined) {
            hashing.set(script, (pending = sha1(script)));
            pending.catch(() => hashing.delete(script));
          }
          hashes.set(script, (hash = await pending));
        }
        return byHashOrText(hash, script, keys, args);
      } finally {
        parked--;
        written();
      }
    })();
  };
  // A ready client gets the call now, in this turn: Redis starts on it while the app goes on.
  return (script, keys, args) => {
    const hash = hashes.get(script);
    return hash === undefined || parked > 0 || isConnecting(candidate as object) ? later(script, keys, args) : byHashOrText(hash, script, keys, args);
  };
}

/** Web Crypto, not node:crypto: the entry then bundles for any runtime a Redis client runs on. */
async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A member's body, or `undefined` for the scripts' '' (no event). The body is a JSON object and
 * the key before it has no '{': it starts at the first one (members of earlier versions had an
 * arrival number there instead of `<sortKey> `).
 */
function body(member: unknown): string | undefined {
  const text = typeof member === 'string' ? member : member instanceof Uint8Array ? new TextDecoder().decode(member) : undefined;
  if (text === undefined) throw new Error(`unexpected reply from Redis: ${shown(member)}`);
  return text === '' ? undefined : text.slice(text.indexOf('{'));
}
