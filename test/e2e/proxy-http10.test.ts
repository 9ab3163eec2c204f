// `linkgate proxy` between peers that speak older or blunter HTTP than node's own client, over raw sockets: an
// HTTP/1.0 client, an HTTP/1.0 upstream that ends its body by closing, and an upload over 1 MB sent with
// `Connection: close` that the mock refuses with 413.

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { spawnNode, startCli } from './support/processes.js';

const ADMIN_KEY = 'proxy-http10-admin-key';

async function startProxy(upstream: string) {
  const proc = spawnNode(['mock/cli.ts', 'proxy', '--port', '0', '--upstream', upstream]);
  const [, url] = await proc.printed(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
  return { ...proc, url: url as string };
}

/** Writes `head` (and `body`) on a raw socket and resolves with every byte read until the peer closes, or an error code. */
function exchange(url: string, head: string, body?: Buffer): Promise<{ text: string; error?: string }> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code;
    });
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('latin1'), ...(error && { error }) }));
    socket.write(head);
    if (body) socket.write(body);
    setTimeout(() => socket.destroy(), 15_000).unref();
  });
}

/** The head of an answer split into its status line and header lines. */
const headOf = (text: string) => text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n');

describe('linkgate proxy with HTTP/1.0 and blunt peers', { timeout: 60_000 }, () => {
  it('answers an HTTP/1.0 client without Keep-Alive or chunking, and closes', async () => {
    const mock = await startCli(['--admin-key', ADMIN_KEY, '--quiet']);
    const proxy = await startProxy(mock.url);
    const { text } = await exchange(
      proxy.url,
      `GET /api/account HTTP/1.0\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_KEY}\r\n\r\n`,
    );
    const head = headOf(text);
    expect(head[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(
      head.filter((h) => /^(keep-alive|transfer-encoding):/i.test(h)),
      head.join('\n'),
    ).toEqual([]);
    expect(head.filter((h) => /^connection:/i.test(h)).map((h) => h.toLowerCase())).toEqual(['connection: close']);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).data.username).toBe('admin');
  });

  it("forwards an HTTP/1.0 upstream's close-delimited body as it came, not re-chunked", async () => {
    const body = JSON.stringify({ error: 0, data: { note: 'x'.repeat(5_000) } });
    const upstream: Server = createServer((socket) => {
      socket.once('data', () => {
        socket.end(`HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n${body}`);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      const proxy = await startProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
      const { text } = await exchange(proxy.url, 'GET /api/anything HTTP/1.1\r\nHost: x\r\n\r\n');
      const head = headOf(text);
      expect(
        head.filter((h) => /^transfer-encoding:/i.test(h)),
        head.join('\n'),
      ).toEqual([]);
      expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe(body);
    } finally {
      upstream.close();
    }
  });

  it('lets a client uploading over 1 MB with Connection: close read the 413', async () => {
    const mock = await startCli(['--seed', 'empty', '--admin-key', ADMIN_KEY, '--rate-limit', 'off', '--quiet']);
    const proxy = await startProxy(mock.url);
    const size = 2 * 1024 * 1024;
    const answer = await exchange(
      proxy.url,
      `POST /api/domain/add HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`,
      Buffer.alloc(size, 'x'),
    );
    expect(answer.text.split('\r\n')[0], answer.error).toMatch(/^HTTP\/1\.1 413/);
    expect(answer.text).toMatch(/larger than 1 MB/);
  });
});
