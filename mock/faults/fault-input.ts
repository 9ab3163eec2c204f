// The words of a fault, declared once in zod: what `POST /__mock/faults`, a `--faults` plan file and
// `backend.faults.add()` accept, each field's rule in the control API's wording (a bad field: 400 naming it). The
// delivery faults (duplicate, staleTimestamp, wrongSecret) keep their words; an API fault adds what, how and when.
import * as z from 'zod/mini';
import { flag, input, oneOf, parseOwnInput, text, whole } from '../http/own-input.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';

/** Every kind of API fault: how the call fails. */
export const FAULT_KINDS = [
  'status',
  'error',
  'rate-limited',
  'unauthorized',
  'unavailable',
  'latency',
  'hang',
  'reset',
  'reset-after-headers',
  'cut-body',
  'malformed-json',
  'trickle',
] as const;

/** A kind of API fault: how the call fails (`status`, `reset`, `trickle`...). */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Which details each kind reads; any other detail given is refused, never ignored. */
export const KIND_DETAILS: Readonly<Record<FaultKind, readonly string[]>> = {
  status: ['status', 'message', 'retryAfter'],
  error: ['message'],
  'rate-limited': ['message', 'retryAfter'],
  unauthorized: ['message'],
  unavailable: ['message', 'retryAfter'],
  latency: ['ms', 'jitterMs'],
  hang: [],
  reset: [],
  'reset-after-headers': [],
  'cut-body': ['bytes'],
  'malformed-json': [],
  trickle: ['chunkBytes', 'intervalMs'],
};
/** Every detail a kind may read. */
export const DETAILS = [
  'status',
  'message',
  'retryAfter',
  'ms',
  'jitterMs',
  'bytes',
  'chunkBytes',
  'intervalMs',
] as const;
/** The fields that name what fails. */
export const TARGET_KEYS = ['operation', 'path', 'method', 'apiKey', 'tenant', 'device'] as const;

const TIMES_RULE = 'must be a whole number from 1 to 1000000, or "always"';
const SEED = whole(0, 2 ** 32 - 1, 'Seed of the chance and jitter draws: the same seed faults the same calls.');
const MS = (description: string) => z.optional(whole(0, 3_600_000, description));

/** One API fault: what fails, how, and when. */
export const API_FAULT = input({
  name: text('A name of your own, shown in lists, the inspector and log lines.'),
  operation: text('WHAT: an operationId (listDomains, sendMessage) or the SDK’s id (domains.list).'),
  path: text('WHAT: a path pattern; `*` or `:name` is one segment, a final `**` the rest (/api/qr/*).'),
  method: oneOf(['GET', 'POST', 'PUT', 'DELETE'], 'WHAT: only calls with this method.'),
  apiKey: text('WHAT: only calls made with this API key (management or messaging).'),
  tenant: text('WHAT: only calls of this messaging tenant.'),
  device: text('WHAT: only sends through this device (sendMessage).'),
  fault: oneOf(FAULT_KINDS, 'HOW the call fails.', { missing: `is required: one of ${FAULT_KINDS.join(', ')}` }),
  status: z.optional(whole(400, 599, 'status: the HTTP status, answered with the API’s own error body.')),
  message: text('status, error, rate-limited, unauthorized, unavailable: the message (default: production’s).'),
  retryAfter: z.optional(
    whole(
      0,
      86_400,
      'rate-limited (default: what is left of the key’s rate window, or 60), status, unavailable: seconds in Retry-After.',
    ),
  ),
  ms: MS('latency: added delay on the mock’s clock.'),
  jitterMs: MS('latency: up to this much more, drawn from the seed.'),
  bytes: z.optional(whole(0, 1_048_576, 'cut-body: body bytes sent before the connection drops (default half).')),
  chunkBytes: z.optional(whole(1, 65_536, 'trickle: bytes per write (default 1).')),
  intervalMs: z.optional(whole(1, 60_000, 'trickle: ms between writes on the mock’s clock (default 100).')),
  times: z.optional(
    z.union([z.int(), z.literal('always')], { error: TIMES_RULE }).check(
      z.refine((v) => v === 'always' || (v >= 1 && v <= 1_000_000), { error: TIMES_RULE }),
      z.meta({ description: 'WHEN: how many calls it fails (default 1), or "always".' }),
    ),
  ),
  nth: z.optional(whole(1, 1_000_000, 'WHEN: the first matching call it fails is the nth (default 1).')),
  chance: z.optional(
    z
      .number({ error: 'must be a number from 0 to 1' })
      .check(
        z.gte(0, { error: 'must be a number from 0 to 1' }),
        z.lte(1, { error: 'must be a number from 0 to 1' }),
        z.meta({ description: 'WHEN: the chance each matching call fails, drawn from the seed.' }),
      ),
  ),
  seed: z.optional(SEED),
  afterMs: MS('WHEN: armed this many ms (mock time) after it is added.'),
  forMs: z.optional(whole(1, 86_400_000, 'WHEN: then for this many ms of mock time only.')),
});

/** The delivery faults, as `POST /__mock/faults` has always read them. */
export const DELIVERY_FAULT = input({
  duplicate: flag('Deliver twice with the same delivery id.'),
  staleTimestamp: z.optional(
    z.union([z.boolean(), z.int().check(z.gte(1), z.meta({ description: 'Seconds in the past.' }))], {
      error: 'must be a boolean or a positive whole number of seconds',
    }),
  ),
  wrongSecret: flag('Send another secret.'),
  times: z._default(whole(1, 1000, 'How many deliveries.'), 1),
});

/** The most faults one plan may hold. */
export const MAX_PLAN_FAULTS = 10_000;

/** A plan: a seed and a list of faults, API and delivery alike (a `--faults` file, or one `POST /__mock/faults`). */
export const FAULT_PLAN = input({
  seed: z.optional(SEED),
  faults: z.array(z.looseObject({}), { error: 'must be a list of faults' }).check(
    z.maxLength(MAX_PLAN_FAULTS, { error: `must hold at most ${MAX_PLAN_FAULTS} faults` }),
    z.meta({
      description: 'Each an API fault (with `fault`) or a delivery fault (duplicate, staleTimestamp, wrongSecret).',
    }),
  ),
});

/** One API fault as given (the `fault` form of `POST /__mock/faults`). */
export interface ApiFaultInput {
  name?: string;
  operation?: string;
  path?: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  apiKey?: string;
  tenant?: string;
  device?: string;
  fault: FaultKind;
  status?: number;
  message?: string;
  retryAfter?: number;
  ms?: number;
  jitterMs?: number;
  bytes?: number;
  chunkBytes?: number;
  intervalMs?: number;
  times?: number | 'always';
  nth?: number;
  chance?: number;
  seed?: number;
  afterMs?: number;
  forMs?: number;
}

/** One delivery fault as given (duplicate, staleTimestamp, wrongSecret). */
export interface DeliveryFaultInput {
  duplicate?: boolean;
  staleTimestamp?: boolean | number;
  wrongSecret?: boolean;
  times?: number;
}

/** A plan as given (a `--faults` file). */
export interface FaultPlanInput {
  seed?: number;
  faults: (ApiFaultInput | DeliveryFaultInput)[];
}

/** What one body (or plan entry) asks for, checked. */
export type ParsedFault = { api: ApiFaultInput } | { delivery: Required<DeliveryFaultInput> };

/**
 * Reads one fault: an API fault when it says `fault`, a delivery fault otherwise. Throws a {@link GatewayInputError}
 * naming the field (under `at`, e.g. `faults[2].status`) and its rule.
 */
export function parseFault(body: Record<string, unknown>, at = ''): ParsedFault {
  const field = (name: string) => (at ? `${at}.${name}` : name);
  try {
    if (body.fault === undefined) {
      // Without `fault` it is a delivery fault, as the endpoint always read it; an API field says one was meant.
      const apiField = API_ONLY_KEYS.find((k) => body[k] !== undefined && body[k] !== null);
      if (apiField) {
        throw new GatewayInputError(
          'fault',
          `is required with ${apiField}: one of ${FAULT_KINDS.join(', ')} (a delivery fault has duplicate, staleTimestamp or wrongSecret)`,
        );
      }
      return { delivery: parseOwnInput(DELIVERY_FAULT, body) as Required<DeliveryFaultInput> };
    }
    const mixed = DELIVERY_KEYS.find((k) => body[k] !== undefined && body[k] !== null);
    if (mixed)
      throw new GatewayInputError(mixed, 'is a delivery fault; give it in an entry of its own, without `fault`');
    const api = parseOwnInput(API_FAULT, body) as unknown as ApiFaultInput;
    checkDetails(api);
    return { api };
  } catch (error) {
    if (error instanceof GatewayInputError && at) throw new GatewayInputError(field(error.field), error.rule);
    throw error;
  }
}

const DELIVERY_KEYS = ['duplicate', 'staleTimestamp', 'wrongSecret'] as const;
/** The fields only an API fault has. */
const API_ONLY_KEYS = [...TARGET_KEYS, ...DETAILS, 'nth', 'chance', 'seed', 'afterMs', 'forMs'] as const;

/** A kind's details only: one it does not read is an error, so a typo never arms a fault that does something else. */
function checkDetails(api: ApiFaultInput): void {
  const reads = KIND_DETAILS[api.fault];
  for (const detail of DETAILS) {
    if (api[detail] === undefined || reads.includes(detail)) continue;
    const kinds = FAULT_KINDS.filter((k) => KIND_DETAILS[k].includes(detail));
    throw new GatewayInputError(detail, `applies to ${kinds.join(', ')} faults only, not ${api.fault}`);
  }
  if (api.fault === 'status' && api.status === undefined) {
    throw new GatewayInputError('status', 'is required for a status fault: an HTTP status from 400 to 599');
  }
  if (api.fault === 'latency' && api.ms === undefined && api.jitterMs === undefined) {
    throw new GatewayInputError(
      'ms',
      'is required for a latency fault: the delay in ms (and jitterMs for more at random)',
    );
  }
  if (api.name !== undefined && (api.name.length === 0 || api.name.length > 100)) {
    throw new GatewayInputError('name', 'must be 1 to 100 characters');
  }
}

/** Reads a plan: its seed and each fault checked, all before any is armed. */
export function parsePlan(body: Record<string, unknown>): { seed: number | undefined; faults: ParsedFault[] } {
  const plan = parseOwnInput(FAULT_PLAN, body) as { seed?: number; faults: Record<string, unknown>[] };
  return { seed: plan.seed, faults: plan.faults.map((entry, i) => parseFault(entry, `faults[${i}]`)) };
}
