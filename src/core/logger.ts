/** Where log lines go; `console` fits. */
export interface Logger {
  /** Per-request detail: method, URL and (redacted) headers before sending. */
  debug(message: string, ...rest: unknown[]): void;
  /** One line per completed request: method, URL, status, time. */
  info(message: string, ...rest: unknown[]): void;
  /** One line per retry or rate-limit wait. */
  warn(message: string, ...rest: unknown[]): void;
  /** One line per request that failed for good. */
  error(message: string, ...rest: unknown[]): void;
}

/** How much to log; each level includes the ones before it. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };
const noop = () => {};

/** A logger that drops nothing and prints nothing. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };

/**
 * Wraps `logger` so calls below `level` are no-ops, and every line passes through `redact` (belt and braces: no line
 * may ever carry the API key).
 */
export function levelledLogger(logger: Logger | undefined, level: LogLevel, redact: (line: string) => string): Logger {
  if (!logger || level === 'off') return silentLogger;
  const rank = RANK[level];
  const at = (l: Exclude<LogLevel, 'off'>) =>
    rank >= RANK[l] ? (message: string, ...rest: unknown[]) => logger[l](redact(message), ...rest) : noop;
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Renders request headers for a log line with `Authorization` replaced by its scheme and `***`. */
export function redactHeaders(headers: Record<string, string>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const shown = name.toLowerCase() === 'authorization' ? `${value.split(' ')[0]} ***` : value;
    parts.push(`${name}: ${shown}`);
  }
  return parts.join(', ');
}
