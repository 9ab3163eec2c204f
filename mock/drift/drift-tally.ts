// Counts exchanges per operation (calls, answers that matched, what differed) and the production variants seen, for
// the table `linkgate check` prints and the summary `linkgate proxy` prints at exit; both also write it as JSON.
import { PRODUCTION_VARIANT_NAMES, type ProductionVariantName } from '../management/variants.js';
import { type ExchangeVerdict, type Finding, TOLERATED } from './findings.js';

/** One distinct difference of an operation and how many exchanges showed it. */
export interface TalliedDifference {
  side: Finding['side'];
  /** The field with indices written `[]`, so one renamed field on 15 records is one row. */
  field: string;
  /** What kind of difference; `tolerated` when linkgate reads the value but the API documents another form. */
  kind: Finding['kind'];
  expected: string;
  /** The first value seen. */
  seen: string;
  count: number;
}

/** What one operation's exchanges showed. */
export interface OperationTally {
  operation: string;
  calls: number;
  /** Exchanges with no finding (after --ignore). */
  matched: number;
  differences: TalliedDifference[];
}

/** The report both commands build: operations, variants matched, and the command that reproduces them in the mock. */
export interface DriftSummary {
  ok: boolean;
  operations: OperationTally[];
  variants: ProductionVariantName[];
  /** `linkgate mock --variant a,b`, or `linkgate mock` when none matched. */
  reproduce: string;
}

/** Adds up verdicts as they come. */
export class DriftTally {
  readonly #operations = new Map<string, OperationTally & { byKey: Map<string, TalliedDifference> }>();
  readonly #variants = new Set<ProductionVariantName>();

  /** Counts one exchange's verdict; `findings` are those left after --ignore. */
  add(verdict: ExchangeVerdict, findings: readonly Finding[] = verdict.findings): void {
    for (const v of verdict.variants) this.#variants.add(v);
    let entry = this.#operations.get(verdict.operation);
    if (!entry) {
      entry = { operation: verdict.operation, calls: 0, matched: 0, differences: [], byKey: new Map() };
      this.#operations.set(verdict.operation, entry);
    }
    entry.calls++;
    if (findings.length === 0) entry.matched++;
    for (const f of findings) {
      const field = f.field.replace(/\[\d+\]/g, '[]');
      const key = `${f.side}\0${field}\0${f.expected}`;
      const known = entry.byKey.get(key);
      if (known) known.count++;
      else {
        const difference = { side: f.side, field, kind: f.kind, expected: f.expected, seen: f.seen, count: 1 };
        entry.byKey.set(key, difference);
        entry.differences.push(difference);
      }
    }
  }

  /** The variants seen so far, in the mock's order. */
  get variants(): ProductionVariantName[] {
    return PRODUCTION_VARIANT_NAMES.filter((name) => this.#variants.has(name));
  }

  /** The summary so far. */
  summary(): DriftSummary {
    const operations = [...this.#operations.values()].map(({ byKey: _byKey, ...rest }) => rest);
    const variants = this.variants;
    return {
      ok: operations.every((o) => o.differences.length === 0),
      operations,
      variants,
      reproduce: variants.length === 0 ? 'linkgate mock' : `linkgate mock --variant ${variants.join(',')}`,
    };
  }
}

/** The per-operation table: calls, matched, and each difference (side, field, expected, seen) on its own line. */
export function formatTally(operations: readonly OperationTally[]): string {
  const width = Math.max(9, ...operations.map((o) => o.operation.length));
  const lines = [`${'operation'.padEnd(width)}  calls  matched  differences`];
  for (const o of operations) {
    const head = `${o.operation.padEnd(width)}  ${String(o.calls).padStart(5)}  ${String(o.matched).padStart(7)}  `;
    if (o.differences.length === 0) {
      lines.push(`${head}none`);
      continue;
    }
    o.differences.forEach((d, i) => {
      const times = d.count > 1 ? ` (${d.count} times)` : '';
      const tolerated = d.kind === 'tolerated' ? `${TOLERATED}: ` : '';
      const text = `${d.side} ${d.field}: ${tolerated}expected ${d.expected}, seen ${d.seen}${times}`;
      lines.push(i === 0 ? head + text : `${' '.repeat(head.length)}${text}`);
    });
  }
  return `${lines.join('\n')}\n`;
}
