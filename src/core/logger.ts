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

const LEVELS = ['error', 'warn', 'info', 'debug'] as const;

/** The enabled levels of a {@link levelledLogger}; a disabled level is missing, so `log.debug?.(...)` builds no line. */
export type LevelledLogger = Partial<Record<(typeof LEVELS)[number], (message: string) => void>>;

/**
 * Wraps `logger` so levels below `level` are absent, and every line passes through `redact` (belt and braces: no line
 * may ever carry the API key).
 */
export function levelledLogger(
  logger: Logger,
  // ClientOptions' LogLevel, spelled here so the Logger's file (shared with linkgate/redis) imports nothing.
  level: 'off' | (typeof LEVELS)[number],
  redact: (line: string) => string,
): LevelledLogger {
  const out: LevelledLogger = {};
  // 'off' is no level: none is enabled.
  for (const l of LEVELS.slice(0, LEVELS.indexOf(level as never) + 1)) out[l] = (line) => logger[l](redact(line));
  return out;
}

/** Renders request headers for a log line with `Authorization` replaced by its scheme and `***`. */
export function redactHeaders(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${name.toLowerCase() === 'authorization' ? `${value.split(' ')[0]} ***` : value}`)
    .join(', ');
}
