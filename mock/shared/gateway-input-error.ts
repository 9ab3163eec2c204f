/**
 * Bad input to the gateway (in-process or over the control API): names the field and the rule. The control API
 * answers it with HTTP 400 and `{ error: "invalid_request", field, rule, message }`.
 */
export class GatewayInputError extends Error {
  override readonly name = 'GatewayInputError';
  /** The offending field, e.g. `url` or `events[2]`. */
  readonly field: string;
  /** The rule it broke, e.g. `must use HTTPS`. */
  readonly rule: string;
  /** HTTP status the control API answers with. @default 400 */
  readonly status: number;

  constructor(field: string, rule: string, status = 400) {
    super(`${field} ${rule}`);
    this.field = field;
    this.rule = rule;
    this.status = status;
  }
}

/**
 * Runs `check` (a row's own checks), naming the field of a {@link GatewayInputError} it throws under `at`:
 * `devices[2]` and `id` become `devices[2].id`, so the error points into the whole input.
 */
export function checkedUnder<T>(at: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof GatewayInputError) throw new GatewayInputError(`${at}.${error.field}`, error.rule);
    throw error;
  }
}
