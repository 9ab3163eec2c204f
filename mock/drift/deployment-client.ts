// The check's HTTP calls to a deployment: bounded in time and in size, and every failure turned into a sentence
// saying what went wrong and what to try (exit code 2), never a stack trace.
import type { Exchange } from './exchange-check.js';

/** The check could not run (unreachable, refused key, not JSON, too large, too slow): exit code 2. */
export class CannotRun extends Error {
  override name = 'CannotRun';
}

/** Limits of one call. */
export interface CallLimits {
  /** Milliseconds to wait for the whole answer. */
  timeoutMs: number;
  /** Largest answer body read, in bytes. */
  maxBodyBytes: number;
}

/** Sends one request and reads its answer whole, as an {@link Exchange} the checker can judge. */
export async function callDeployment(
  base: URL,
  method: string,
  pathAndQuery: string,
  headers: Record<string, string>,
  body: string | undefined,
  limits: CallLimits,
): Promise<Exchange> {
  // A deployment served under a path (https://example.com/links/) keeps it in front of the API's paths.
  const url = new URL(base.href.replace(/\/$/, '') + pathAndQuery);
  const what = `${method} ${url.pathname}`;
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body, signal, redirect: 'manual' });
  } catch (error) {
    throw connectionFailure(error, base, what, limits.timeoutMs);
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limits.maxBodyBytes) {
    await response.body?.cancel();
    throw tooLarge(what, declared, limits.maxBodyBytes);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const reader = response.body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limits.maxBodyBytes) {
        await reader.cancel();
        throw tooLarge(what, size, limits.maxBodyBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof CannotRun) throw error;
    throw connectionFailure(error, base, what, limits.timeoutMs);
  }
  const responseHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    responseHeaders[name] = value;
  });
  return {
    method,
    // Judged by the API's own path: a deployment's prefix is where it lives, not part of the operation.
    url: pathAndQuery,
    requestHeaders: headers,
    requestBody: body,
    status: response.status,
    responseHeaders,
    responseBody: Buffer.concat(chunks).toString('utf8'),
  };
}

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

function tooLarge(what: string, bytes: number, limit: number): CannotRun {
  return new CannotRun(
    `${what} answered more than ${megabytes(limit)} (${bytes > limit ? `at least ${megabytes(bytes)}` : ''}); the API's answers are small JSON documents, so --base-url probably points at something else (raise --max-body to read it anyway).`,
  );
}

function connectionFailure(error: unknown, base: URL, what: string, timeoutMs: number): CannotRun {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') {
    return new CannotRun(
      `${base.origin} did not answer ${what} within ${timeoutMs / 1000} s (--timeout); is the deployment up and reachable from here?`,
    );
  }
  const code = err.cause?.code ?? err.cause?.message ?? err.message;
  const hint =
    code === 'ECONNREFUSED'
      ? 'nothing listens there; check --base-url and that the deployment is running'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'the host name does not resolve; check --base-url'
        : code === 'bad port'
          ? "fetch refuses this port (one of the ports browsers block, such as 9 or 6000); use the deployment's own port"
          : 'check --base-url and the network between here and the deployment';
  return new CannotRun(`Could not reach ${base.origin} for ${what} (${code}): ${hint}.`);
}
