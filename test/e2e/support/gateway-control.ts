// The mock's /__mock/ control API as another language would call it: plain HTTP with the control token.
import { type NodeProcess, spawnNode } from './processes.js';

/** A control API client for a `linkgate mock` started with `--control-token <token>`. */
export function controlApi(baseUrl: string, token: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/__mock/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field in the tests.
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body: unknown = {}) => call('POST', path, body),
  };
}

/**
 * Starts a receiver written inline as an ES module (plain JavaScript, node:http) in its own `node` process, and
 * resolves with its URL once it prints `listening on <url>`.
 */
export async function startReceiverProcess(source: string): Promise<{ url: string; proc: NodeProcess }> {
  const proc = spawnNode(['--input-type=module', '-e', source]);
  const [, url] = await proc.printed(/listening on (http:\/\/\S+)/);
  return { url: url as string, proc };
}
