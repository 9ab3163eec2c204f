// What a failed fetch says, read from whatever was thrown: ky's NetworkError (a runtime's network TypeError inside),
// or anything a custom fetch throws (null, a number, a string, a Proxy whose traps throw, an object with throwing
// getters, bytes). Every read is guarded, and only text comes out: the thrown value itself is never kept.
import { isNetworkError } from 'ky';

/** The engine's own errors: thrown by JavaScript code that failed (a handler, an interceptor, a missing feature). */
const CODE_ERRORS = new Set(['TypeError', 'ReferenceError', 'SyntaxError', 'RangeError', 'EvalError', 'InternalError']);

/** How a fetch failed, as text only. */
export interface FetchFailure {
  /** What failed: the network error's message (`fetch failed`), or a description of what a custom fetch threw. */
  reason: string;
  /** The system's code (ECONNREFUSED, ENOTFOUND), or the inner reason without one (a blocked "bad port"). */
  detail: string | undefined;
  /**
   * Whether the failure came from code in this process rather than from the network: fetch failed with a cause that
   * is a JavaScript error (a TypeError, ReferenceError, msw's InternalError...) and no system code.
   */
  inProcess: boolean;
}

/** `read()`, or undefined when reading throws (a Proxy's trap, a throwing getter). */
export function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** A property of an odd value, read without letting it throw. */
const field = (value: unknown, name: string): unknown =>
  (typeof value === 'object' || typeof value === 'function') && value !== null
    ? safely(() => (value as Record<string, unknown>)[name])
    : undefined;

/** The text a thrown value stands for: a string as it is, an error-like object's message, else what kind it is. */
function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  const message = field(value, 'message');
  if (typeof message === 'string') return message;
  if (typeof value !== 'object' || value === null) return safely(() => String(value)) ?? typeof value;
  // The kind only (`[object Uint8Array]`): never the content, which may be the key's bytes.
  return safely(() => Object.prototype.toString.call(value)) ?? '[object Object]';
}

/**
 * What `thrown` (what ky passed on from a fetch) says about the failure. ky tells the network's TypeError apart (its
 * NetworkError, the runtime's error in its cause); anything else a custom fetch threw is read through its own cause
 * when it has one, which may hold the Request with its Authorization header: only text is read from either.
 */
export function fetchFailure(thrown: unknown): FetchFailure {
  const cause = field(thrown, 'cause');
  const raw = safely(() => isNetworkError(thrown)) ? cause : (cause ?? thrown);
  const inner = field(raw, 'cause');
  const code = field(inner, 'code');
  const innerMessage = field(inner, 'message');
  const name = field(inner, 'name');
  const detail =
    typeof code === 'string' || typeof code === 'number'
      ? String(code)
      : typeof innerMessage === 'string'
        ? innerMessage
        : undefined;
  return {
    reason: describe(raw),
    detail,
    inProcess: code === undefined && typeof name === 'string' && CODE_ERRORS.has(name),
  };
}
