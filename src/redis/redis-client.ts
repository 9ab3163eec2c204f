// Synchronous, unlike Web Crypto's digest: a command waiting for its script's hash would reach Redis after commands
// sent later on the same connection, and the stores rely on one connection's commands arriving in order.
import { createHash } from 'node:crypto';

/**
 * A connected Redis client of either library linkgate supports: node-redis v6 (`createClient()` from `redis`, after
 * `await client.connect()`) or ioredis v6 (`new Redis()` from `ioredis`). Only the shape is described here, so this
 * entry never imports either library: the stores use the client you pass, and anything else is refused with a
 * TypeError naming what to install.
 */
export type RedisClientLike =
  | {
      /** node-redis: `EVALSHA` with keys and arguments. */
      evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
      /** node-redis: `EVAL` with keys and arguments. */
      eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
      /** node-redis: `SET` with `NX` and `PX`. */
      set(
        key: string,
        value: string,
        options: { condition?: 'NX'; expiration: { type: 'PX'; value: number } },
      ): Promise<unknown>;
    }
  | {
      /** ioredis: `EVALSHA sha numkeys key... arg...`. */
      evalsha(sha: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
      /** ioredis: `EVAL script numkeys key... arg...`. */
      eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
      /** ioredis: `SET key value PX ms NX`. */
      set(key: string, value: string, px: 'PX', ms: number, nx: 'NX'): Promise<unknown>;
    };

/** node-redis v6: camelCase commands taking option objects. */
type NodeRedisShape = Extract<RedisClientLike, { evalSha: unknown }>;

/** ioredis v6: lower-case commands taking Redis's own argument lists. */
type IoRedisShape = Extract<RedisClientLike, { evalsha: unknown }>;

/** A Lua script and its SHA-1, which Redis caches scripts by. */
export interface RedisScript {
  readonly source: string;
  /** The hex SHA-1 of `source`, computed once, synchronously. */
  sha(): string;
}

/** Declares a Lua script; its SHA-1 is computed on first use. */
export function redisScript(source: string): RedisScript {
  let sha: string | undefined;
  return {
    source,
    sha: () => {
      sha ??= createHash('sha1').update(source).digest('hex');
      return sha;
    },
  };
}

/** Deletes the key only while it still holds the caller's value, so a late release cannot remove another's claim. */
const COMPARE_AND_DELETE = redisScript(
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
);

/** Thrown when Redis does not answer within `timeoutMs`, or a command fails; the stores decide what that means. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/**
 * The few commands the stores need, the same on both libraries, each bounded by a timeout. Replies come back as the
 * library gives them (numbers, strings, arrays of those).
 */
export interface RedisConnection {
  /** Runs a script by SHA (one round trip); after a Redis restart or `SCRIPT FLUSH` it sends the source once. */
  eval(script: RedisScript, keys: string[], args: (string | number)[]): Promise<unknown>;
  /** `SET key value NX PX ms`: true when the key was absent and is now set. */
  setNxPx(key: string, value: string, ms: number): Promise<boolean>;
  /** `SET key value PX ms`. */
  set(key: string, value: string, ms: number): Promise<void>;
  /** Deletes `key` if it holds `value`; true when it did. */
  compareAndDelete(key: string, value: string): Promise<boolean>;
}

/** How long a store waits for Redis before it treats it as unavailable, unless told otherwise. */
export const DEFAULT_REDIS_TIMEOUT_MS = 2_000;

/**
 * Wraps the user's client, detected by shape. `owner` names the store in the TypeError thrown for anything that is
 * neither library's client.
 */
export function redisConnection(client: unknown, owner: string, timeoutMs = DEFAULT_REDIS_TIMEOUT_MS): RedisConnection {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError(
      `${owner}: timeoutMs must be a positive number of ms (got ${String(timeoutMs)}); pass e.g. 2000.`,
    );
  }
  const commands = isNodeRedis(client)
    ? nodeRedisCommands(client)
    : isIoRedis(client)
      ? ioRedisCommands(client)
      : refuse(client, owner);
  const lost = connectionLost(client);
  const bounded = <T>(run: () => Promise<T>) =>
    lost()
      ? Promise.reject(new RedisUnavailableError('Redis failed: the client lost its connection and is reconnecting'))
      : withTimeout(run, timeoutMs);
  // Scripts this connection has sent whole: the first use sends the source (EVAL caches it), later ones only the SHA.
  // EVALSHA first would answer NOSCRIPT and the source would follow a round trip later, behind commands sent after it.
  const sent = new Set<RedisScript>();
  const evalScript = (script: RedisScript, keys: string[], args: (string | number)[]) =>
    bounded(async () => {
      const strings = args.map(String);
      if (!sent.has(script)) {
        sent.add(script);
        return commands.eval(script.source, keys, strings);
      }
      try {
        // Sent before any await, so commands reach Redis in the order they were asked for.
        return await commands.evalSha(script.sha(), keys, strings);
      } catch (error) {
        // Redis forgets scripts on restart and SCRIPT FLUSH; EVAL runs it and caches it again.
        if (!/^NOSCRIPT/.test(messageOf(error))) throw error;
        return commands.eval(script.source, keys, strings);
      }
    });
  return {
    eval: evalScript,
    setNxPx: (key, value, ms) => bounded(async () => (await commands.setNxPx(key, value, ms)) === 'OK'),
    set: (key, value, ms) =>
      bounded(async () => {
        await commands.set(key, value, ms);
      }),
    compareAndDelete: async (key, value) => Number(await evalScript(COMPARE_AND_DELETE, [key], [value])) === 1,
  };
}

/** Both libraries behind the same four raw operations. */
interface RawCommands {
  evalSha(sha: string, keys: string[], args: string[]): Promise<unknown>;
  eval(source: string, keys: string[], args: string[]): Promise<unknown>;
  setNxPx(key: string, value: string, ms: number): Promise<unknown>;
  set(key: string, value: string, ms: number): Promise<unknown>;
}

function nodeRedisCommands(client: NodeRedisShape): RawCommands {
  return {
    evalSha: (sha, keys, args) => client.evalSha(sha, { keys, arguments: args }),
    eval: (source, keys, args) => client.eval(source, { keys, arguments: args }),
    setNxPx: (key, value, ms) => client.set(key, value, { condition: 'NX', expiration: { type: 'PX', value: ms } }),
    set: (key, value, ms) => client.set(key, value, { expiration: { type: 'PX', value: ms } }),
  };
}

function ioRedisCommands(client: IoRedisShape): RawCommands {
  return {
    evalSha: (sha, keys, args) => client.evalsha(sha, keys.length, ...keys, ...args),
    eval: (source, keys, args) => client.eval(source, keys.length, ...keys, ...args),
    setNxPx: (key, value, ms) => client.set(key, value, 'PX', ms, 'NX'),
    set: (key, value, ms) => (client as unknown as Settable).set(key, value, 'PX', ms),
  };
}

interface Settable {
  set(key: string, value: string, px: 'PX', ms: number): Promise<unknown>;
}

/**
 * Whether the client says it lost its connection. Commands are then failed at once rather than left in the library's
 * offline queue: one that ran after its timeout, on the Redis that came back, would take budget nobody uses. A client
 * still making its first connection is let through: its queue runs within moments.
 */
function connectionLost(client: unknown): () => boolean {
  const state = client as { isOpen?: unknown; isReady?: unknown; status?: unknown };
  // node-redis: open (connect() was called) but not ready means reconnecting, as connect() resolves once ready.
  if (typeof state.isReady === 'boolean' && typeof state.isOpen === 'boolean') {
    return () => state.isOpen === true && state.isReady === false;
  }
  // ioredis: 'reconnecting' (and 'close' before it) between attempts; 'connecting' both before the first 'ready'
  // and during each new attempt, so that one counts as a loss only after the client was ready once.
  if (typeof state.status === 'string') {
    let wasReady = state.status === 'ready';
    return () => {
      if (state.status === 'ready') wasReady = true;
      return state.status === 'reconnecting' || state.status === 'close' || (wasReady && state.status !== 'ready');
    };
  }
  return () => false;
}

const isFunction = (value: unknown, name: string) =>
  typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[name] === 'function';

function isNodeRedis(client: unknown): client is NodeRedisShape {
  return isFunction(client, 'evalSha') && isFunction(client, 'set');
}

function isIoRedis(client: unknown): client is IoRedisShape {
  return isFunction(client, 'evalsha') && isFunction(client, 'set');
}

function refuse(client: unknown, owner: string): never {
  const got =
    client === null ? 'null' : typeof client === 'object' ? `an object without evalSha/evalsha` : typeof client;
  throw new TypeError(
    `${owner}: client must be a connected Redis client of node-redis v6 (createClient() of the redis package, after await client.connect()) or ioredis v6 (new Redis() of the ioredis package); got ${got}. Install one (npm install redis, or npm install ioredis) and pass the client itself.`,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs `run`, failing with RedisUnavailableError after `ms`. The timer's rejection waits one turn of the event loop, so
 * an answer that arrived while the loop was busy is read before the timeout is believed.
 */
function withTimeout<T>(run: () => Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      defer(() => {
        if (settled) return;
        settled = true;
        reject(new RedisUnavailableError(`Redis did not answer within ${ms} ms (timeoutMs)`));
      });
    }, ms);
    run().then(
      (value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(new RedisUnavailableError(`Redis failed: ${messageOf(error)}`, { cause: error }));
      },
    );
  });
}

/** After pending I/O callbacks (setImmediate in Node, Bun and Deno), else a zero timeout. */
const defer: (fn: () => void) => void =
  typeof globalThis.setImmediate === 'function' ? (fn) => globalThis.setImmediate(fn) : (fn) => setTimeout(fn, 0);
