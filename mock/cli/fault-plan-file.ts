// `linkgate mock --faults <plan.json>`: a fault plan armed before the first request, for CI runs that must fail the
// same calls every time. The file is the body of `POST /__mock/faults` in its plan form: `{ seed?, faults: [...] }`.
import { readFileSync, statSync } from 'node:fs';
import type { BackendCore } from '../backend.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
import { jsonErrorPlace } from './json-error-offset.js';

/** The largest plan file read (a plan of 10,000 faults is about 1 MB). */
export const MAX_PLAN_FILE_BYTES = 16 * 1024 * 1024;

/** A plan file the server cannot start with: printed as it is, exit code 2. */
export class FaultPlanError extends Error {
  override name = 'FaultPlanError';
}

/**
 * Reads the plan at `path` and arms it on `backend`, all or nothing; returns the banner's line. Throws a
 * {@link FaultPlanError} naming the file, the line and column of bad JSON, or the field and rule of a bad fault.
 */
export function armFaultPlan(backend: BackendCore, path: string): string {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > MAX_PLAN_FILE_BYTES) {
      throw new Error(`it is ${size} bytes; at most ${MAX_PLAN_FILE_BYTES} are read`);
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new FaultPlanError(`--faults: could not read the plan ${path}: ${(error as Error).message}`);
  }
  let plan: unknown;
  try {
    plan = JSON.parse(text);
  } catch (error) {
    const { line, column, why } = jsonErrorPlace(text, error);
    throw new FaultPlanError(`--faults: the plan ${path} is not valid JSON: line ${line}, column ${column}: ${why}.`);
  }
  if (typeof plan !== 'object' || plan === null || Array.isArray(plan)) {
    throw new FaultPlanError(`--faults: the plan ${path} must be a JSON object: {"seed": 1, "faults": [...]}.`);
  }
  try {
    const armed = backend.faults.plan(plan as never);
    const seed = (plan as { seed?: unknown }).seed;
    const deliveries = backend.faults.deliveries;
    return `  faults: ${armed.length} armed from ${path}${seed === undefined ? '' : ` (seed ${seed})`}${
      deliveries > 0 ? `, ${deliveries} deliveries with faults` : ''
    }; GET /__mock/faults lists them`;
  } catch (error) {
    if (!(error instanceof GatewayInputError)) throw error;
    throw new FaultPlanError(`--faults: the plan ${path} was not armed: ${error.field} ${error.rule}.`);
  }
}
