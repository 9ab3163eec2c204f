// Both client libraries the stores support, connected the way their READMEs show, plus a raw command for the tests'
// own look at Redis (keys, expiries, SCRIPT FLUSH, CLIENT PAUSE).
import { Redis } from 'ioredis';
import type { RedisClientLike } from 'linkgate/redis';
import { createClient } from 'redis';
import { waitAfterRestart } from './redis-server.js';

/** The libraries every Redis store test runs on. */
export const CLIENT_LIBRARIES = ['node-redis', 'ioredis'] as const;
export type ClientLibrary = (typeof CLIENT_LIBRARIES)[number];

/** A connected client of one library. */
export interface ConnectedClient {
  library: ClientLibrary;
  /** What the stores take. */
  client: RedisClientLike;
  /** Sends any command, e.g. `['PTTL', key]`. */
  command(args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

/** Connects with the library's defaults, errors swallowed (a test that stops Redis sees them as the store does). */
export async function connectClient(library: ClientLibrary, url: string): Promise<ConnectedClient> {
  if (library === 'node-redis') {
    const client = createClient({ url });
    client.on('error', () => {});
    await client.connect();
    // The offline queue holds the PING until the client has reconnected.
    const forget = waitAfterRestart(url, () => client.sendCommand(['PING']));
    return {
      library,
      client,
      command: (args) => client.sendCommand(args),
      close: async () => {
        forget();
        client.destroy();
      },
    };
  }
  const client = new Redis(url);
  client.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('end', () => reject(new Error(`ioredis could not connect to ${url}`)));
  });
  const forget = waitAfterRestart(url, () => client.ping());
  return {
    library,
    client,
    command: ([name, ...args]) => client.call(name as string, ...args),
    close: async () => {
      forget();
      client.disconnect();
    },
  };
}
