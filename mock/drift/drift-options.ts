// Flag readers `linkgate check` and `linkgate proxy` share: each names the flag and its rule when the value is wrong.
import { parseArgs } from 'node:util';
import { type IgnoreRule, parseIgnore } from './findings.js';
import { OPERATION_IDS } from './operation-table.js';
import { hasCredentials, printableUrl } from './url-credentials.js';

/** A command-line mistake: printed without a stack trace, exit code 2. */
export class DriftUsageError extends Error {
  override name = 'DriftUsageError';
}

type FlagSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;

/** parseArgs, with its errors as {@link DriftUsageError}s that list the known flags. */
export function readFlags<T extends FlagSpec>(argv: string[], flags: T) {
  try {
    return parseArgs({ args: argv, options: flags, allowPositionals: false, strict: true }).values;
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const flag = /'([^']+)'/.exec(err.message)?.[1] ?? 'given';
      throw new DriftUsageError(
        `Unknown option ${flag}; the options are ${Object.keys(flags)
          .map((f) => `--${f}`)
          .join(', ')}.`,
      );
    }
    throw new DriftUsageError(err.message);
  }
}

/** An http(s) URL flag. */
export function readUrl(flag: string, value: string | undefined, required: true): URL;
export function readUrl(flag: string, value: string | undefined, required: false): URL | undefined;
export function readUrl(flag: string, value: string | undefined, required: boolean): URL | undefined {
  if (value === undefined) {
    if (required)
      throw new DriftUsageError(`--${flag} is required: the deployment's address, e.g. https://links.example.com.`);
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DriftUsageError(
      `--${flag} must be a full URL starting with http:// or https://; got "${printableUrl(value)}".`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DriftUsageError(`--${flag} must start with http:// or https://; got "${printableUrl(url)}".`);
  }
  return url;
}

/**
 * An API's address (`--base-url`): an http(s) URL with a path at most. A user name or password is refused (the check
 * signs in with its key, and fetch refuses such URLs), and so are a query and a fragment, which are no part of an
 * address: the mock's inspector link (`http://127.0.0.1:4010/#token=...`) carries its control token there. None of
 * them is ever printed.
 */
export function readApiUrl(flag: string, value: string | undefined, required: true): URL;
export function readApiUrl(flag: string, value: string | undefined, required: false): URL | undefined;
export function readApiUrl(flag: string, value: string | undefined, required: boolean): URL | undefined {
  const url = required ? readUrl(flag, value, true) : readUrl(flag, value, false);
  if (!url) return undefined;
  const address = `${url.origin}${url.pathname}`;
  if (hasCredentials(url)) {
    throw new DriftUsageError(
      `--${flag} must not carry a user name or password (${printableUrl(url)}): the check signs in with its key alone; give the address, ${address}.`,
    );
  }
  // `http://host/?` and `http://host/#` parse to an empty query and fragment: the text tells they were given.
  const part =
    url.search !== '' || value!.includes('?')
      ? 'query ("?...")'
      : url.hash !== '' || value!.includes('#')
        ? 'fragment ("#...")'
        : undefined;
  if (part) {
    throw new DriftUsageError(
      `--${flag} has a ${part}, which is no part of the API's address (the mock's inspector link carries its control token there); give the address alone: ${address}.`,
    );
  }
  return url;
}

/** A positive number flag (seconds, megabytes, counts), with its default. */
export function readPositive(flag: string, value: string | undefined, fallback: number, unit: string): number {
  if (value === undefined) return fallback;
  const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!(n > 0)) throw new DriftUsageError(`--${flag} must be a positive number of ${unit}; got "${value}".`);
  return n;
}

/** `--ignore op[:field]`, repeatable. */
export function readIgnores(values: string[] | undefined, known: readonly string[] = OPERATION_IDS): IgnoreRule[] {
  try {
    return (values ?? []).map((v) => parseIgnore(v, known));
  } catch (error) {
    throw new DriftUsageError((error as Error).message);
  }
}

/** A key flag, or the named environment variable; keys never appear in the messages. */
export function readKey(
  flag: string,
  value: string | undefined,
  env: string | undefined,
  envName: string,
): string | undefined {
  const key = value ?? env;
  if (key !== undefined && (key === '' || /\s/.test(key))) {
    throw new DriftUsageError(`--${flag} (or ${envName}) must be a non-empty key without spaces.`);
  }
  return key;
}
