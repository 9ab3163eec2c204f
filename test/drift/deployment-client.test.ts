// The check's calls to a deployment: where they go, and how a too-large answer ends them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CannotRun, callDeployment } from '../../mock/drift/deployment-client.js';

const seen: string[] = [];
const server = createServer((req, res) => {
  seen.push(req.url ?? '');
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(req.url === '/big' ? JSON.stringify({ data: 'x'.repeat(2_000) }) : '{"error":0}');
});
let base: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const limits = { timeoutMs: 5_000, maxBodyBytes: 1_000 };

describe('callDeployment', () => {
  it('calls a deployment served under a path there (https://example.com/links/api/...), and names the exchange by the API path', async () => {
    const exchange = await callDeployment(new URL(`${base}/links/`), 'GET', '/api/account?x=1', {}, undefined, limits);
    expect(seen.at(-1)).toBe('/links/api/account?x=1');
    expect(exchange).toMatchObject({ status: 200, url: '/api/account?x=1', responseBody: '{"error":0}' });
  });

  it('stops reading an answer larger than the limit, with a sentence naming the flag', async () => {
    await expect(callDeployment(new URL(base), 'GET', '/big', {}, undefined, limits)).rejects.toThrow(CannotRun);
    await expect(callDeployment(new URL(base), 'GET', '/big', {}, undefined, limits)).rejects.toThrow(
      /raise --max-body/,
    );
  });
});
