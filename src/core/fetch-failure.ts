// What a failed fetch says, read from whatever was thrown: ky's NetworkError (a runtime's network TypeError inside),
// or anything a custom fetch throws (null, a number, a string, a Proxy whose traps throw, an object with throwing
// getters, bytes). Every read is guarded, and only text comes out: the thrown value itself is never kept.
import { isNetworkError } from 'ky';

/** The engine's own errors (and msw's InternalError): thrown by code that failed, not by the network. */
const CODE_ERROR = /^(Type|Reference|Syntax|Range|Eval|Internal)Error$/;

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

// biome-ignore lint/suspicious/noExplicitAny: whatever was thrown, read with optional chaining inside a try.
type Thrown = any;

/** The text a thrown value stands for: a string as it is, an error-like object's message, else what kind it is. */
function describe(value: Thrown): string {
  const message = typeof value === 'string' ? value : value?.message;
  if (typeof message === 'string') return message;
  // Of an object, the kind only (`[object Uint8Array]`): never the content, which may be the key's bytes.
  return value !== null && (typeof value === 'object' || typeof value === 'function')
    ? Object.prototype.toString.call(value)
    : String(value);
}

/**
 * What `thrown` (what ky passed on from a fetch) says about the failure. ky tells the network's TypeError apart (its
 * NetworkError, the runtime's error in its cause); anything else a custom fetch threw is read through its own cause
 * when it has one, which may hold the Request with its Authorization header: only text is read from either. A value
 * that throws when read (a Proxy's trap, a getter) is named as such.
 */
export function fetchFailure(thrown: Thrown): FetchFailure {
  try {
    const cause = thrown?.cause;
    const raw = isNetworkError(thrown) ? cause : (cause ?? thrown);
    const inner = raw?.cause;
    const code = inner?.code;
    const message = inner?.message;
    const name = inner?.name;
    return {
      reason: describe(raw),
      detail:
        typeof code === 'string' || typeof code === 'number'
          ? `${code}`
          : typeof message === 'string'
            ? message
            : undefined,
      inProcess: code === undefined && typeof name === 'string' && CODE_ERROR.test(name),
    };
  } catch {
    return { reason: 'a value that throws when read', detail: undefined, inProcess: false };
  }
}
