// What a drift check reports, the --ignore rules that silence parts of it, and the scrubbing that keeps keys,
// passwords, webhook secrets and tokens out of every finding, report line and recording.
import type { ProductionVariantName } from '../management/variants.js';
import { HIDDEN, SecretSet } from './secret-hiding.js';
import type { DifferenceKind } from './shape-check.js';

export { HIDDEN };

/** Which side of an exchange disagreed with the table. */
export type Side = 'request' | 'response';

/** One disagreement between an exchange and the operation table. */
export interface Finding {
  side: Side;
  /** The operation id (`domains.list`), or `unknown` for a path neither table has. */
  operation: string;
  method: string;
  /** The request's path, without its query. */
  path: string;
  /** Where in the exchange: a JSON path, `status`, `header X-RateLimit-Remaining`, `(body)`. */
  field: string;
  kind: DifferenceKind | 'status' | 'header' | 'body' | 'operation';
  expected: string;
  seen: string;
}

/** What one exchange showed: its findings and the production variants whose behaviour it matched. */
export interface ExchangeVerdict {
  operation: string;
  findings: Finding[];
  variants: ProductionVariantName[];
}

/** The words a `tolerated` finding carries wherever it is printed (the table, the proxy's lines). */
export const TOLERATED = 'tolerated by linkgate, differs from the API';

/** Field names whose values are secrets: never shown, always replaced by {@link HIDDEN}. */
const SECRET_FIELD = /(api_?key|apikey|password|pass|secret|token|authorization)$/i;

/** True for a JSON path or header whose value is a secret (`data[0].apikey`, `Authorization`). */
export function isSecretField(field: string): boolean {
  const last =
    field
      .replace(/\[\d+\]/g, '')
      .split(/[.\s]/)
      .pop() ?? '';
  return SECRET_FIELD.test(last);
}

/**
 * Hides the given secrets (keys the user passed) in a text: where they stand as whole words, and URL credentials;
 * see {@link SecretSet}.
 */
export function secretHider(secrets: readonly (string | undefined)[]): (text: string) => string {
  const known = new SecretSet();
  for (const secret of secrets) known.add(secret);
  return (text) => known.hideText(text);
}

/** Longest value a finding shows; longer ones are cut, after their secrets are hidden. */
const SHOWN_LENGTH = 60;

/** A value cut to {@link SHOWN_LENGTH} characters for display (a JSON string keeps its closing quote). */
export function cutForDisplay(text: string): string {
  if (text.length <= SHOWN_LENGTH) return text;
  return `${text.slice(0, SHOWN_LENGTH - 3)}...${text.endsWith('"') ? '"' : ''}`;
}

/**
 * A finding with secret values taken out: by field name, then by the known secrets anywhere in its text; values are
 * cut for display only then, so no part of a secret cut in half is left to show.
 */
export function scrubFinding(finding: Finding, hide: (text: string) => string): Finding {
  const seen = isSecretField(finding.field) && finding.seen !== 'absent' ? HIDDEN : finding.seen;
  return {
    ...finding,
    path: hide(finding.path),
    field: hide(finding.field),
    expected: hide(finding.expected),
    seen: cutForDisplay(hide(seen)),
  };
}

/** One --ignore rule: an operation id (or `*`), optionally a field path; indices match any index. */
export interface IgnoreRule {
  operation: string;
  field?: string;
}

/** `[3]` as `[]`, so `data.domains[].id` silences the field on every record. */
const anyIndex = (path: string) => path.replace(/\[\d+\]/g, '[]');

/** Reads `op[:field]` into a rule; the field may use `[]` for any index. */
export function parseIgnore(text: string, knownOperations: readonly string[]): IgnoreRule {
  const colon = text.indexOf(':');
  const operation = colon < 0 ? text : text.slice(0, colon);
  const field = colon < 0 ? undefined : text.slice(colon + 1);
  if (operation !== '*' && operation !== 'unknown' && !knownOperations.includes(operation)) {
    throw new TypeError(
      `--ignore "${text}": "${operation}" is not an operation id; use * or one of ${knownOperations.join(', ')}.`,
    );
  }
  if (field === '')
    throw new TypeError(`--ignore "${text}": the field after ":" is empty; give a path such as data.domains[].id.`);
  return field === undefined ? { operation } : { operation, field };
}

/** True when a rule silences the finding: same operation (or `*`) and, with a field, that field or one inside it. */
export function isIgnored(finding: Finding, rules: readonly IgnoreRule[]): boolean {
  return rules.some((rule) => {
    if (rule.operation !== '*' && rule.operation !== finding.operation) return false;
    if (rule.field === undefined) return true;
    const field = anyIndex(finding.field);
    const wanted = anyIndex(rule.field);
    return field === wanted || field.startsWith(`${wanted}.`) || field.startsWith(`${wanted}[`);
  });
}

/** A finding as one console line: side, operation, request, field, expected, seen. */
export function formatFinding(f: Finding): string {
  const tolerated = f.kind === 'tolerated' ? `${TOLERATED}: ` : '';
  return `drift ${f.side} ${f.operation} ${f.method} ${f.path} ${f.field}: ${tolerated}expected ${f.expected}, seen ${f.seen}`;
}
