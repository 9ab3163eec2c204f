// `linkgate check`: does this deployment answer as the SDK and the mock expect? A read-only tour with the user's key,
// each answer checked against the operation table; a table per operation, the variants that reproduce it, exit 0/1/2.
import { writeFileSync } from 'node:fs';
import { CannotRun } from '../drift/deployment-client.js';
import { type TourResult, tourDeployment } from '../drift/deployment-tour.js';
import { DriftUsageError, readApiUrl, readFlags, readIgnores, readKey, readPositive } from '../drift/drift-options.js';
import { type DriftSummary, DriftTally, formatTally } from '../drift/drift-tally.js';
import { isIgnored, scrubFinding, secretHider } from '../drift/findings.js';
import { buildRecording } from '../drift/recording.js';
import { PRODUCTION_VARIANT_NAMES, type ProductionVariantName } from '../management/variants.js';

/** `linkgate check --help`. */
export const CHECK_HELP = `Usage: linkgate check --base-url <url> --api-key <key> [options]

Tours a deployment of the management API with your key (every list, page by page, and detail the key may read; plans
and users when it is an admin's key) and checks each answer against linkgate's operation table: status, envelope,
each field's type and rule, unknown fields, rate-limit headers and the documented quirks. Nothing is created,
changed or deleted unless --write is given.

Options:
  --base-url <url>            the management API's address (required); a path is kept
                              (https://example.com/links), a user name, password, query or fragment refused
  --api-key <key>             your API key (or LINKGATE_API_KEY)
  --messaging-base-url <url>  the messaging API's address (checked with an empty send, which it refuses)
  --messaging-key <key>       the messaging key (or LINKGATE_MESSAGING_KEY)
  --write                     also create a domain, a pixel and a QR code (a user with an admin key), update
                              and read them, then delete them: only records the check made itself
  --ignore <op[:field]>       silence an operation or one field (data.domains[].id); repeatable
  --record <file>             write what the deployment answered, and the variants it matched, as a
                              fixture: linkgate mock --fixture <file>; keys and passwords are never written
  --json                      print the report as JSON
  --timeout <s>               seconds to wait for each answer              (default 10)
  --max-body <MB>             largest answer read                          (default 5)
  --max-pages <n>             pages read per list                          (default 10)
  --page-size <n>             records per page (limit), to walk the pages  (default the deployment's)
  --max-wait <s>              longest wait for the rate window to reopen   (default 65)
  -h, --help                  show this help

Values linkgate reads but the API documents in another form (a numeric string for a number, a date not written
YYYY-MM-DD HH:MM:SS) are drift too, reported as "tolerated by linkgate, differs from the API".

Exit codes: 0 every answer matched, 1 drift found, 2 the check could not run (or could not recognise an answer).
`;

const FLAGS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'messaging-base-url': { type: 'string' },
  'messaging-key': { type: 'string' },
  write: { type: 'boolean' },
  ignore: { type: 'string', multiple: true },
  record: { type: 'string' },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  'max-body': { type: 'string' },
  'max-pages': { type: 'string' },
  'page-size': { type: 'string' },
  'max-wait': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Where the command writes and the environment it reads keys from. */
export interface DriftIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Record<string, string | undefined>;
}

/** What the run could see of a variant it did not match: each shows only in some answers. */
interface Unseen {
  /** False when no answer of the run could show the variant: it was not checked at all. */
  checked: boolean;
  why: string;
}

/** Why a variant was not matched, or why it could not be checked. */
const UNSEEN: Record<ProductionVariantName, (run: { write: boolean; rateLimited: boolean }) => Unseen> = {
  overlayCollection: () => ({ checked: true, why: 'the overlay list used "cta", as the API documents' }),
  stringIds: ({ write }) =>
    write
      ? { checked: true, why: 'new ids came back as numbers, as the API documents' }
      : { checked: false, why: 'only ids of new records show it: add --write to see' },
  negativeRemaining: ({ rateLimited }) =>
    rateLimited
      ? { checked: true, why: 'X-RateLimit-Remaining stayed at 0 or above when over the limit' }
      : { checked: false, why: 'only answers over the rate limit show it; the tour stayed under it' },
  perAttemptDeliveryIds: () => ({
    checked: false,
    why: "webhook deliveries only show it: run linkgate proxy --receiver <your receiver URL>, set the gateway's webhook URL to the proxy, and let one delivery fail once",
  }),
};

/** The check's JSON report. */
export interface CheckReport extends DriftSummary {
  baseUrl: string;
  exitCode: 0 | 1;
  /** Whether the key was an admin's (plans and users were read). */
  admin: boolean;
  /** Each variant not matched, whether the run could see it at all (`checked`), and what it could tell. */
  notMatched: ({ variant: ProductionVariantName } & Unseen)[];
  /** Differences that linkgate reads but that are not the API's documented form (kind `tolerated`). */
  tolerated: number;
  /** The fixture file written by --record. */
  recording?: string;
}

/** Runs `linkgate check <argv>` and resolves with its exit code. */
export async function runCheck(argv: string[], io: DriftIo): Promise<number> {
  let flags: ReturnType<typeof readFlags<typeof FLAGS>>;
  let apiKey: string | undefined;
  let messagingKey: string | undefined;
  try {
    flags = readFlags(argv, FLAGS);
    if (flags.help) {
      io.out(CHECK_HELP);
      return 0;
    }
    apiKey = readKey('api-key', flags['api-key'], io.env.LINKGATE_API_KEY, 'LINKGATE_API_KEY');
    messagingKey = readKey(
      'messaging-key',
      flags['messaging-key'],
      io.env.LINKGATE_MESSAGING_KEY,
      'LINKGATE_MESSAGING_KEY',
    );
  } catch (error) {
    return usageFailure(error, io);
  }
  const hide = secretHider([apiKey, messagingKey]);
  try {
    const baseUrl = readApiUrl('base-url', flags['base-url'], true);
    if (apiKey === undefined)
      throw new DriftUsageError('--api-key (or LINKGATE_API_KEY) is required: the key of a user of the deployment.');
    const messagingBaseUrl = readApiUrl('messaging-base-url', flags['messaging-base-url'], false);
    if (messagingBaseUrl && messagingKey === undefined) {
      throw new DriftUsageError('--messaging-base-url needs --messaging-key (or LINKGATE_MESSAGING_KEY).');
    }
    const ignores = readIgnores(flags.ignore);
    const limits = {
      timeoutMs: readPositive('timeout', flags.timeout, 10, 'seconds') * 1000,
      maxBodyBytes: readPositive('max-body', flags['max-body'], 5, 'megabytes') * 1_048_576,
      maxPages: Math.floor(readPositive('max-pages', flags['max-pages'], 10, 'pages')),
      maxWaitMs: readPositive('max-wait', flags['max-wait'], 65, 'seconds') * 1000,
      ...(flags['page-size'] !== undefined && {
        pageSize: Math.floor(readPositive('page-size', flags['page-size'], 15, 'records')),
      }),
    };
    const tally = new DriftTally();
    const unrecognised: string[] = [];
    let tour: TourResult;
    try {
      tour = await tourDeployment({
        baseUrl,
        apiKey,
        ...(messagingBaseUrl && { messagingBaseUrl, messagingKey }),
        write: flags.write ?? false,
        ...limits,
        onExchange: (exchange, verdict) => {
          if (verdict.operation === 'unknown') unrecognised.push(`${exchange.method} ${exchange.url}`);
          const findings = verdict.findings.map((f) => scrubFinding(f, hide)).filter((f) => !isIgnored(f, ignores));
          tally.add(verdict, findings);
        },
      });
    } catch (error) {
      if (error instanceof CannotRun) return cannotRun(error.message, io, hide, flags.json);
      throw error;
    }
    const summary = tally.summary();
    const answers = summary.operations.reduce((n, o) => n + o.calls, 0);
    // An answer the table cannot name is one nothing was checked against: never a pass.
    if (unrecognised.length > 0 || answers === 0) {
      return cannotRun(
        `${unrecognised.length} of ${answers} answers could not be matched to an operation of linkgate's table (${unrecognised[0] ?? 'none answered'}), so they were not checked; check --base-url (a deployment under a path is given with it: https://example.com/links).`,
        io,
        hide,
        flags.json,
      );
    }
    const report: CheckReport = {
      baseUrl: baseUrl.href,
      ...summary,
      exitCode: summary.ok ? 0 : 1,
      admin: tour.admin,
      notMatched: PRODUCTION_VARIANT_NAMES.filter((v) => !summary.variants.includes(v)).map((variant) => ({
        variant,
        ...UNSEEN[variant]({ write: flags.write ?? false, rateLimited: tour.rateLimited }),
      })),
      tolerated: summary.operations.reduce((n, o) => n + o.differences.filter((d) => d.kind === 'tolerated').length, 0),
    };
    if (flags.record !== undefined) {
      const fixture = buildRecording(tour.records, tour.admin, summary.variants);
      try {
        writeFileSync(flags.record, hide(`${JSON.stringify(fixture, null, 2)}\n`));
      } catch (error) {
        return cannotRun(`Could not write --record ${flags.record}: ${(error as Error).message}`, io, hide, flags.json);
      }
      report.recording = flags.record;
    }
    io.out(hide(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatCheck(report)));
    return report.exitCode;
  } catch (error) {
    return usageFailure(error, io, hide);
  }
}

/** The human report: the table, the variants, the verdict. */
export function formatCheck(report: CheckReport): string {
  const drifted = report.operations.filter((o) => o.differences.length > 0).length;
  const tolerated =
    report.tolerated > 0
      ? `; ${report.tolerated} difference(s) are values linkgate tolerates but the API documents otherwise`
      : '';
  const lines = [
    `linkgate check ${report.baseUrl} (${report.admin ? "an admin's key: plans and users read too" : 'not an admin key: plans and users skipped'})`,
    '',
    formatTally(report.operations),
    variantsHeadline(report),
    ...report.notMatched.map((n) => `  ${n.variant}: ${n.checked ? 'not matched' : 'not checked'} (${n.why})`),
    ...(report.recording
      ? [
          `Recording written to ${report.recording}, variants included: start a mock from it with linkgate mock --fixture ${report.recording}`,
        ]
      : []),
    '',
    report.ok
      ? 'Result: every answer matched the operation table (exit 0).'
      : `Result: drift in ${drifted} operation(s)${tolerated} (exit 1).`,
    '',
  ];
  return lines.join('\n');
}

/**
 * What the variants line claims is what the run proved: the variants it matched, those no answer of the run could
 * show (not checked), and the mock that reproduces what was checked (only when nothing drifted).
 */
function variantsHeadline(report: CheckReport): string {
  const unchecked = report.notMatched.filter((n) => !n.checked).map((n) => n.variant);
  const matched = `Production variants matched: ${report.variants.length > 0 ? report.variants.join(', ') : 'none'}.`;
  const notChecked = unchecked.length > 0 ? ` Not checked: ${unchecked.join(', ')} (see below).` : '';
  if (!report.ok) return matched + notChecked;
  const what = unchecked.length > 0 ? 'what was checked' : 'this deployment';
  return report.variants.length > 0
    ? `${matched}${notChecked} Reproduce ${what} with: ${report.reproduce}`
    : `${matched}${notChecked} The plain mock reproduces ${what}: linkgate mock`;
}

function cannotRun(message: string, io: DriftIo, hide: (t: string) => string, json = false): number {
  io.err(hide(`linkgate check: ${message}\n`));
  if (json) io.out(hide(`${JSON.stringify({ ok: false, exitCode: 2, error: message }, null, 2)}\n`));
  return 2;
}

function usageFailure(error: unknown, io: DriftIo, hide: (t: string) => string = (t) => t): number {
  // Anything else is a failure of the check itself: still a sentence and exit 2, never mistaken for drift (1).
  if (!(error instanceof DriftUsageError)) return cannotRun(`the check failed: ${(error as Error).message}`, io, hide);
  io.err(hide(`linkgate check: ${error.message}\nRun "linkgate check --help" for usage.\n`));
  return 2;
}
