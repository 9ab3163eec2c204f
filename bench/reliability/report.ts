// What every part of the reliability suite hands back: the figures it measured and the checks those figures must
// pass (a zero target or an upper bound), so `run.ts` and the CI test judge them the same way.

/** One judged figure: `value` must be 0 (`max: 0`) or at most `max`. */
export interface Check {
  /** What was counted or measured, e.g. `5xx answers`. */
  name: string;
  /** The measured figure. */
  value: number;
  /** The largest acceptable value: 0 for a zero target. */
  max: number;
  /** Unit printed after the figures, e.g. `ms` or `MB`. */
  unit?: string;
  /** The first few cases that broke the check, to reproduce it. */
  examples?: string[];
}

/** What one part of the suite measured. */
export interface PartReport {
  /** The part, e.g. `mock API fuzz`. */
  part: string;
  /** Figures reported but not judged (requests sent, req/s, ...). */
  figures: Record<string, number | string>;
  /** Figures judged against their targets. */
  checks: Check[];
}

/** Sizes of one run: `ci` takes seconds and runs in `npm test`; `full` is what `npm run reliability` runs. */
export type SuiteSize = 'ci' | 'full';

/** Options every part takes. */
export interface PartOptions {
  /** How much to send. @default 'full' */
  size?: SuiteSize;
  /** The fast-check / PRNG seed, so a run can be repeated exactly. @default 20261124 */
  seed?: number;
}

/** The seed of a run that does not choose one. */
export const DEFAULT_SEED = 20261124;

/** True when the check holds. */
export function holds(check: Check): boolean {
  return check.value <= check.max;
}

/** The check as one line: figure, target, verdict, and the examples that broke it. */
export function describeCheck(check: Check): string {
  const unit = check.unit ? ` ${check.unit}` : '';
  const target = check.max === 0 ? 'target 0' : `bound <= ${check.max}${unit}`;
  const line = `${check.name}: ${round(check.value)}${unit} (${target}) ${holds(check) ? 'PASS' : 'FAIL'}`;
  if (holds(check) || !check.examples?.length) return line;
  return `${line}\n${check.examples.map((e) => `      e.g. ${e}`).join('\n')}`;
}

/** The checks of a report that do not hold, described (an empty list when all hold). */
export function failures(report: PartReport): string[] {
  return report.checks.filter((c) => !holds(c)).map(describeCheck);
}

/** Prints a report: its figures, then each check with its verdict. */
export function printReport(report: PartReport, log: (line: string) => void = console.log): void {
  log(`\n## ${report.part}`);
  for (const [name, value] of Object.entries(report.figures)) {
    log(`  ${name}: ${typeof value === 'number' ? round(value) : value}`);
  }
  for (const check of report.checks) log(`  ${describeCheck(check)}`);
}

/** Keeps up to `limit` examples of what broke a check. */
export class Examples {
  readonly #items: string[] = [];
  count = 0;
  constructor(readonly limit = 3) {}

  /** Counts one more case, keeping its description while there is room. */
  add(description: string): void {
    this.count++;
    if (this.#items.length < this.limit)
      this.#items.push(description.length > 300 ? `${description.slice(0, 300)}…` : description);
  }

  /** The kept descriptions. */
  get items(): string[] {
    return [...this.#items];
  }
}

/** A zero-target check from counted examples. */
export function zeroCheck(name: string, examples: Examples): Check {
  return { name, value: examples.count, max: 0, examples: examples.items };
}

function round(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString('en-US') : n.toFixed(1);
}
