// The set-up every Redis test file repeats: one redis-server per file, clients of one library per block, a logger
// that keeps its lines. Each helper registers its own beforeAll/afterAll in the describe block it is called in.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type ClientLibrary, type ConnectedClient, connectClient } from './redis-clients.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

/** Starts redis-server before the block's tests and stops it after; the handle reads the server once started. */
export function useRedisServer(): RedisServer {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const started = (): RedisServer => {
    if (!server) throw new Error('useRedisServer: the server is read before its beforeAll started it');
    return server;
  };
  return {
    get port() {
      return started().port;
    },
    get url() {
      return started().url;
    },
    pid: () => started().pid(),
    stop: (signal) => started().stop(signal),
    restart: () => started().restart(),
  };
}

/** After each test, starts Redis again if the test stopped it, so the next test finds it running. */
export function restartRedisAfterEach(redis: RedisServer): void {
  afterEach(async () => {
    if (redis.pid() === null) await redis.restart();
  });
}

/** Connects `count` clients of `library` before the block's tests and closes them after; the array fills then. */
export function useClients(library: ClientLibrary, redis: RedisServer, count: number): ConnectedClient[] {
  const connections: ConnectedClient[] = [];
  beforeAll(async () => {
    for (let i = 0; i < count; i++) connections.push(await connectClient(library, redis.url));
  });
  afterAll(async () => {
    for (const connected of connections.splice(0)) await connected.close();
  });
  return connections;
}

/**
 * Two clients of `library` with a store made on each (by `make`) before the block's tests; `next()` gives their
 * indexes in turn, so a contract's steps alternate between the stores as between two processes.
 */
export function useStoresInTurn<S>(
  library: ClientLibrary,
  redis: RedisServer,
  make: (connected: ConnectedClient) => S,
): { connections: ConnectedClient[]; stores: S[]; next: () => number } {
  const connections = useClients(library, redis, 2);
  const stores: S[] = [];
  let turn = 0;
  beforeAll(() => {
    for (const connected of connections) stores.push(make(connected));
  });
  return { connections, stores, next: () => turn++ % stores.length };
}

/** One client of `library` for the block's tests, as {@link useClients}; the handle reads it once connected. */
export function useClient(library: ClientLibrary, redis: RedisServer): ConnectedClient {
  const connections = useClients(library, redis, 1);
  const connected = (): ConnectedClient => {
    const first = connections[0];
    if (!first) throw new Error('useClient: the client is read before its beforeAll connected it');
    return first;
  };
  return {
    library,
    get client() {
      return connected().client;
    },
    command: (args) => connected().command(args),
    close: () => connected().close(),
  };
}

/** A logger that keeps its lines, `warn: ...` and `info: ...`, in the order they were written. */
export function recordingLogger() {
  const lines: string[] = [];
  return {
    lines,
    warn: (line: string) => lines.push(`warn: ${line}`),
    info: (line: string) => lines.push(`info: ${line}`),
  };
}
