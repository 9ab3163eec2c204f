import { LinkgateError } from './errors.js';

type Globals = Record<string, unknown>;

/** Reads an environment variable where a `process.env` exists (Node, Bun, Deno's Node compat); undefined elsewhere. */
export function readEnv(name: string, globals: Globals = globalThis as Globals): string | undefined {
  const env = (globals.process as { env?: Record<string, string | undefined> } | undefined)?.env;
  const value = env?.[name]?.trim();
  return value ? value : undefined;
}

/**
 * True when running in a web page or a web worker. Deno and Bun are servers even though they define some browser
 * globals, so they are excluded first.
 */
export function isBrowserLike(globals: Globals = globalThis as Globals): boolean {
  return (
    globals.Deno === undefined &&
    globals.Bun === undefined &&
    ((globals.window !== undefined && globals.document !== undefined) ||
      // Dedicated, shared and service workers all inherit WorkerGlobalScope and have importScripts.
      (globals.WorkerGlobalScope !== undefined && typeof globals.importScripts === 'function'))
  );
}

/**
 * Throws unless the caller opted in: an API key in browser code is readable by every visitor.
 * @param clientName - the class name, for the message.
 */
export function assertServerSide(clientName: string, dangerouslyAllowBrowser: boolean | undefined): void {
  if (dangerouslyAllowBrowser || !isBrowserLike()) return;
  throw new LinkgateError(
    `${clientName} is running in a browser-like environment: its API key would ship to every visitor. Call the API ` +
      'from your server, or pass { dangerouslyAllowBrowser: true } if the risk is yours.',
  );
}
