import { createServer, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createBackendCore } from '../../../mock/backend.js';
import { createInspectorServer, type InspectorServer } from '../../../mock/inspector/inspector-server.js';
import { ManualClock } from '../../../mock/shared/manual-clock.js';

const TOKEN = 'ctl_slow_reader_token';

/** The inspector alone on a node:http server, keeping each feed's response so the test can see what it buffers. */
async function serveInspector() {
  const backend = createBackendCore({ clock: new ManualClock(), seed: 'demo', gateway: { controlToken: TOKEN } });
  const alice = [...backend.store.users.values()].find((u) => u.username === 'alice')!;
  // Every change goes out at once: the test makes changes faster than any reader can take them.
  const inspector = createInspectorServer(backend, { coalesceMs: 0 });
  const responses: ServerResponse[] = [];
  const server = createServer((req, res) => {
    responses.push(res);
    if (!inspector.handle(req, res, req.url ?? '/')) res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { backend, alice, inspector, responses, server, port };
}

/** Opens the feed on a raw socket that reads nothing until told to. */
function pausedReader(port: number): { socket: Socket; received: () => string; resume: () => void } {
  const socket = connect(port, '127.0.0.1');
  socket.write(`GET /__mock/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`);
  socket.pause();
  let text = '';
  return {
    socket,
    received: () => text,
    resume: () => {
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
      });
      socket.resume();
    },
  };
}

const until = async (check: () => boolean, what: string, ms = 10_000) => {
  const deadline = performance.now() + ms;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('the inspector feed and a slow reader', () => {
  let server: Server | undefined;
  let inspector: InspectorServer | undefined;
  afterEach(async () => {
    inspector?.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = undefined;
  });

  it('buffers at most one update for a reader that stops reading, then sends one fresh snapshot when it reads again', async () => {
    const served = await serveInspector();
    ({ server, inspector } = served);
    const { backend, alice, responses, port } = served;
    for (let i = 0; i < 1500; i++) backend.store.addDomain(alice.id, { domain: `https://d${i}.bulk.example` });
    const reader = pausedReader(port);
    await until(() => inspector!.feed.readers === 1, 'the feed has its reader');
    const res = responses[0]!;
    let changes = 0;
    // Updates carry only the rows that changed: 500 renamed domains (about 35 KB) each, so the socket fills soon.
    const bulk = [...backend.store.domains.values()].slice(-500);
    const change = async () => {
      for (const d of bulk) d.domain = `https://c${changes}-${d.id}.bulk.example`;
      backend.store.addDomain(alice.id, { domain: `https://more${changes++}.example` });
      inspector!.touch();
      await new Promise((r) => setTimeout(r, 1));
    };
    // Fill everything between the server and the reader that does not read.
    while (!res.writableNeedDrain && changes < 2_000) await change();
    expect(res.writableNeedDrain, 'the socket never filled up').toBe(true);
    const buffered = res.writableLength;
    // One update past the high-water mark at most: a queue per reader would grow with every change below.
    expect(buffered).toBeLessThan(res.writableHighWaterMark + 400_000);
    for (let i = 0; i < 200; i++) await change();
    expect(res.writableLength).toBe(buffered);

    reader.resume();
    const domains = backend.store.domains.size;
    // The update after the pause is a whole snapshot with every domain so far, not the 200 changes one by one.
    await until(() => reader.received().includes(`https://more${changes - 1}.example`), 'the last domain arrives');
    const afterPause = reader.received().split('event: snapshot\n').length - 1;
    expect(afterPause).toBe(2);
    const last = reader.received().lastIndexOf('event: snapshot\ndata: ');
    const snapshot = JSON.parse(reader.received().slice(last + 22, reader.received().indexOf('\n', last + 22)));
    expect(snapshot.data.domains).toHaveLength(domains);
    reader.socket.destroy();
  }, 60_000);

  it('frees the reader and stops listening to the gateway when the page goes away', async () => {
    const served = await serveInspector();
    ({ server, inspector } = served);
    expect(inspector.feed.listening).toBe(false);
    const reader = pausedReader(served.port);
    reader.resume();
    await until(() => reader.received().includes('event: snapshot'), 'the snapshot arrives');
    expect(inspector.feed.readers).toBe(1);
    expect(inspector.feed.listening).toBe(true);
    reader.socket.destroy();
    await until(() => inspector!.feed.readers === 0, 'the reader is gone');
    expect(inspector.feed.listening).toBe(false);
    expect(served.responses[0]!.destroyed).toBe(true);
  });
});
