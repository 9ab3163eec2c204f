// The armed faults of one backend, indexed by operation so a call of an operation no fault names costs one map
// look-up, whatever is armed elsewhere. The book decides which call fails and how; the adapters play a wire form.
import { type Clock, sleep } from '../../src/shared/clock.js';
import { secretsEqual } from '../../src/shared/constant-time.js';
import type { FaultInjector } from '../delivery/fault-injector.js';
import { LifecycleEmitter, type Unsubscribe } from '../delivery/lifecycle-emitter.js';
import type { RouteInterceptor } from '../http/router.js';
import type { InjectedFault, MockRequest, MockResponse, WireForm } from '../http/types.js';
import { bearerKey } from '../management/auth.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
import { ANSWER_KINDS, type AnswerKind, faultAnswer, malformed } from './fault-answer.js';
import {
  type ApiFaultInput,
  DETAILS,
  type DeliveryFaultInput,
  type FaultKind,
  type FaultPlanInput,
  type ParsedFault,
  parseFault,
  parsePlan,
  TARGET_KEYS,
} from './fault-input.js';
import { type FaultableOperation, type FaultCatalogue, pathMatches, resolveTarget, splitPath } from './fault-target.js';
import { seededRandom } from './seeded-random.js';

/** The most API faults armed at once (each is small; the bound keeps a runaway script from growing memory). */
export const MAX_ARMED_FAULTS = 10_000;
/** How many fired faults {@link FaultBook.fired} keeps (newest). */
export const FIRED_KEPT = 200;

/** An armed API fault, as lists show it (an API key by its last 4 characters). */
export interface ArmedFault {
  /** `f1`, `f2`...: named in the request log, the inspector and `DELETE /__mock/faults?id=`. */
  id: string;
  /** The name given, if any. */
  name?: string;
  /** How the call fails. */
  fault: FaultKind;
  /** The operationIds it can hit. */
  operations: string[];
  /** What was given to name the calls (operation, path, method, apiKey shown masked, tenant, device). */
  target: Record<string, string>;
  /** The kind's details as given (status, message, retryAfter, ms, jitterMs, bytes, chunkBytes, intervalMs). */
  details: Record<string, string | number>;
  /** How many calls it fails in all. */
  times: number | 'always';
  /** The first matching call it fails is this one. */
  nth: number;
  /** The chance each matching call fails (1 when not given). */
  chance: number;
  /** The seed of its draws: give it back to repeat a run. */
  seed: number;
  /** Mock time it starts, ms since the epoch. */
  activeFrom: number;
  /** Mock time it ends, or null for never. */
  activeUntil: number | null;
  /** Matching calls seen so far. */
  seen: number;
  /** Calls it failed so far. */
  fired: number;
}

/** One call a fault changed. */
export interface FiredFault {
  /** Mock time, ms since the epoch. */
  at: number;
  /** The rule's id. */
  rule: string;
  /** The rule's name, if any. */
  name?: string;
  /** How the call failed. */
  fault: FaultKind;
  /** The operationId of the call. */
  operation: string;
  /** Its method. */
  method: string;
  /** Its path. */
  path: string;
}

/** What a fault book tells its listeners. */
export interface FaultEvents extends Record<string, unknown> {
  /** Faults were armed or disarmed (cleared, spent). */
  changed: undefined;
  /** A call was changed by a fault. */
  fired: FiredFault;
}

/** What a fault book reads of its backend. */
export interface FaultBookHost {
  /** The backend's clock: windows, latency and trickle run on it. */
  clock: Clock;
  /** Randomness for seeds nobody gave. */
  random(): number;
  /** The management API's rate limit in force (for `X-RateLimit-Limit`). */
  rateLimit(): number;
  /** When the rate window of the key in an Authorization header ends (ms since the epoch), if one is open. */
  rateWindowEnd(authorization: string | undefined): number | undefined;
  /** The messaging tenant of an Authorization header, or undefined. */
  tenantOf(authorization: string | undefined): string | undefined;
  /** The gateway's delivery faults, armed by the same words. */
  delivery: FaultInjector;
  /** The operations faults can name (mock/faults/fault-target.ts). */
  operations: FaultCatalogue;
}

interface Rule {
  view: ArmedFault;
  spec: ApiFaultInput;
  /** The operations it is indexed under. */
  ops: FaultableOperation[];
  pattern: string[] | undefined;
  random: () => number;
  times: number;
}

/**
 * The faults armed on a backend: `backend.faults` in-process, `/__mock/faults` over HTTP, `linkgate mock --faults`.
 * A fault names what fails (an operation, a path pattern, a method, one API key, tenant or device), how (an answer in
 * the API's own shape, latency, no answer, a dropped or cut connection, broken JSON, a trickle) and when (the next N
 * calls, the nth, a seeded chance, a window of mock time). Each call meets at most one fault: the first armed that
 * fires.
 *
 * @example
 * backend.faults.add({ operation: 'listDomains', fault: 'status', status: 503, times: 2 });
 * backend.faults.plan({ seed: 7, faults: [{ path: '/api/**', fault: 'reset', chance: 0.1, times: 'always' }] });
 */
export class FaultBook {
  readonly #host: FaultBookHost;
  readonly #byOperation = new Map<string, Rule[]>();
  readonly #rules = new Map<string, Rule>();
  readonly #fired: FiredFault[] = [];
  readonly #events = new LifecycleEmitter<FaultEvents>();
  #nextId = 1;

  /** Made by the backend (`backend.faults`). @internal */
  constructor(host: FaultBookHost) {
    this.#host = host;
  }

  /**
   * Arms one API fault; returns it as lists show it. Throws a {@link GatewayInputError} naming the field when the
   * fault is wrong, or names nothing that exists (an unknown operation, a pattern that matches no path).
   */
  add(fault: ApiFaultInput): ArmedFault {
    const parsed = parseFault(fault as unknown as Record<string, unknown>);
    if (!('api' in parsed)) throw new GatewayInputError('fault', 'is required (delivery faults go through plan())');
    return this.#arm([this.#prepare(parsed.api, undefined, 0)])[0]!;
  }

  /**
   * Arms a plan, all or nothing: every fault is checked before any is armed. A plan's `seed` seeds each fault that
   * has none of its own (its place in the list mixed in), so the same plan fails the same calls in every run.
   * Delivery faults (duplicate, staleTimestamp, wrongSecret) go to the gateway's next deliveries.
   */
  plan(plan: FaultPlanInput): ArmedFault[] {
    return this.armParsed(parsePlan(plan as unknown as Record<string, unknown>));
  }

  /** Arms faults already read by `parseFault`/`parsePlan` (the control API's path). @internal */
  armParsed({ seed, faults }: { seed: number | undefined; faults: ParsedFault[] }): ArmedFault[] {
    const rules: Rule[] = [];
    faults.forEach((parsed, i) => {
      if ('api' in parsed) rules.push(this.#prepare(parsed.api, seed, i, faults.length > 1 ? `faults[${i}].` : ''));
    });
    const armed = this.#arm(rules);
    for (const parsed of faults) if ('delivery' in parsed) this.#armDelivery(parsed.delivery);
    return armed;
  }

  /** The API faults armed now, in the order they were armed. */
  list(): ArmedFault[] {
    return [...this.#rules.values()].map((rule) => ({ ...rule.view }));
  }

  /** The last 200 calls a fault changed, oldest first. */
  fired(): FiredFault[] {
    return [...this.#fired];
  }

  /** Deliveries with faults still armed (the gateway's). */
  get deliveries(): number {
    return this.#host.delivery.armed;
  }

  /** How many API faults are armed. */
  get size(): number {
    return this.#rules.size;
  }

  /** Disarms one API fault by id (true when it was armed), or with no id every fault, delivery faults included. */
  clear(id?: string): boolean {
    if (id !== undefined) {
      const rule = this.#rules.get(id);
      if (rule) this.#disarm(rule);
      return rule !== undefined;
    }
    const had = this.#rules.size > 0 || this.#host.delivery.armed > 0;
    this.#rules.clear();
    this.#byOperation.clear();
    this.#host.delivery.clear();
    this.#events.emit('changed', undefined);
    return had;
  }

  /** Forgets faults and what they fired (a backend reset). */
  reset(): void {
    this.clear();
    this.#fired.length = 0;
  }

  /** Listens to `changed` (armed, disarmed) and `fired` (a call was changed); returns the way to stop. */
  on<K extends keyof FaultEvents>(event: K, listener: (payload: FaultEvents[K]) => void): Unsubscribe {
    return this.#events.on(event, listener);
  }

  /** The router's hook: a call of an operation no fault names costs one look-up. @internal */
  readonly intercept: RouteInterceptor = (req, route) => {
    if (this.#rules.size === 0 || route.operation === undefined) return undefined;
    const rules = this.#byOperation.get(route.operation);
    if (!rules) return undefined;
    const rule = this.#pick(rules, req);
    if (!rule) return undefined;
    const op = this.#host.operations.byName.get(route.operation)!;
    this.#record(rule, op, req);
    return (answer) => this.#play(rule, op, req, answer);
  };

  #prepare(spec: ApiFaultInput, planSeed: number | undefined, index: number, at = ''): Rule {
    let ops: FaultableOperation[];
    try {
      ops = resolveTarget(spec, this.#host.operations);
      if (spec.fault === 'error') {
        ops = ops.filter((op) => op.api === 'management');
        if (ops.length === 0) {
          throw new GatewayInputError(
            'fault',
            'error (HTTP 200 with error: 1) is the management API’s form; the messaging API fails with statuses: use status or unavailable',
          );
        }
      }
      if (spec.apiKey !== undefined && (spec.apiKey === '' || /\s/.test(spec.apiKey))) {
        throw new GatewayInputError('apiKey', 'must be a key without spaces');
      }
    } catch (error) {
      if (error instanceof GatewayInputError && at) throw new GatewayInputError(`${at}${error.field}`, error.rule);
      throw error;
    }
    const seed =
      spec.seed ??
      (planSeed === undefined ? Math.floor(this.#host.random() * 2 ** 32) : (planSeed + index * 0x9e3779b9) >>> 0);
    const now = this.#host.clock.now();
    const activeFrom = now + (spec.afterMs ?? 0);
    const times = spec.times === 'always' ? Number.POSITIVE_INFINITY : (spec.times ?? 1);
    const view: ArmedFault = {
      id: '',
      ...(spec.name !== undefined && { name: spec.name }),
      fault: spec.fault,
      operations: ops.map((op) => op.operationId),
      target: targetView(spec),
      details: detailView(spec),
      times: spec.times ?? 1,
      nth: spec.nth ?? 1,
      chance: spec.chance ?? 1,
      seed,
      activeFrom,
      activeUntil: spec.forMs === undefined ? null : activeFrom + spec.forMs,
      seen: 0,
      fired: 0,
    };
    return {
      view,
      spec,
      ops,
      pattern: spec.path === undefined ? undefined : splitPath(spec.path),
      random: seededRandom(seed),
      times,
    };
  }

  #arm(rules: Rule[]): ArmedFault[] {
    if (this.#rules.size + rules.length > MAX_ARMED_FAULTS) {
      throw new GatewayInputError(
        'faults',
        `would make ${this.#rules.size + rules.length} armed; at most ${MAX_ARMED_FAULTS} may be armed at once (DELETE /__mock/faults or backend.faults.clear() disarms them)`,
        409,
      );
    }
    for (const rule of rules) {
      rule.view.id = `f${this.#nextId++}`;
      this.#rules.set(rule.view.id, rule);
      for (const op of rule.ops) {
        const list = this.#byOperation.get(op.id);
        if (list) list.push(rule);
        else this.#byOperation.set(op.id, [rule]);
      }
    }
    if (rules.length > 0) this.#events.emit('changed', undefined);
    return rules.map((rule) => ({ ...rule.view }));
  }

  #armDelivery(d: Required<DeliveryFaultInput>): void {
    const faults: { duplicate?: true; wrongSecret?: true; staleTimestamp?: boolean | number } = {};
    if (d.duplicate) faults.duplicate = true;
    if (d.wrongSecret) faults.wrongSecret = true;
    if (d.staleTimestamp) faults.staleTimestamp = d.staleTimestamp;
    this.#host.delivery.next(faults, d.times);
    this.#events.emit('changed', undefined);
  }

  #disarm(rule: Rule): void {
    this.#rules.delete(rule.view.id);
    for (const op of rule.ops) {
      const list = this.#byOperation.get(op.id);
      if (!list) continue;
      const i = list.indexOf(rule);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) this.#byOperation.delete(op.id);
    }
    this.#events.emit('changed', undefined);
  }

  /** The first armed rule that fires for this call, counting the call for every rule it matches. */
  #pick(rules: Rule[], req: MockRequest): Rule | undefined {
    const now = this.#host.clock.now();
    // Split once, and only when a rule has a pattern.
    const path = rules.some((rule) => rule.pattern) ? splitPath(req.path) : [];
    for (const rule of rules) {
      const { view, spec } = rule;
      if (now < view.activeFrom || (view.activeUntil !== null && now >= view.activeUntil)) continue;
      if (rule.pattern && !pathMatches(rule.pattern, path)) continue;
      if (spec.apiKey !== undefined && !secretsEqual(bearerKey(req.headers.authorization) ?? '', spec.apiKey)) continue;
      if (spec.tenant !== undefined && this.#host.tenantOf(req.headers.authorization) !== spec.tenant) continue;
      if (spec.device !== undefined && deviceOf(req.body) !== spec.device) continue;
      view.seen++;
      if (view.seen < view.nth) continue;
      if (spec.chance !== undefined && rule.random() >= spec.chance) continue;
      view.fired++;
      if (view.fired >= rule.times) this.#disarm(rule);
      return rule;
    }
    return undefined;
  }

  #record(rule: Rule, op: FaultableOperation, req: MockRequest): void {
    const fired: FiredFault = {
      at: this.#host.clock.now(),
      rule: rule.view.id,
      ...(rule.view.name !== undefined && { name: rule.view.name }),
      fault: rule.view.fault,
      operation: op.operationId,
      method: req.method,
      path: req.path,
    };
    if (this.#fired.length >= FIRED_KEPT) this.#fired.shift();
    this.#fired.push(fired);
    this.#events.emit('fired', fired);
  }

  /** Plays a fired rule: its own answer, or the real answer delayed, changed or handed to the adapter to send. */
  async #play(
    rule: Rule,
    op: FaultableOperation,
    req: MockRequest,
    answer: () => Promise<MockResponse>,
  ): Promise<MockResponse> {
    const { spec, view } = rule;
    const injected: InjectedFault = {
      rule: view.id,
      kind: spec.fault,
      ...(spec.name !== undefined && { name: spec.name }),
    };
    const wire = (form: WireForm, res: MockResponse): MockResponse => ({ ...res, fault: { ...injected, wire: form } });
    if ((ANSWER_KINDS as readonly string[]).includes(spec.fault)) {
      const windowEnd = this.#host.rateWindowEnd(req.headers.authorization);
      const details = { ...spec, limit: this.#host.rateLimit(), now: this.#host.clock.now(), windowEnd };
      return { ...faultAnswer(spec.fault as AnswerKind, op.api, details), fault: injected };
    }
    switch (spec.fault) {
      case 'latency': {
        const jitter = spec.jitterMs ? Math.floor(rule.random() * (spec.jitterMs + 1)) : 0;
        await sleep(this.#host.clock, (spec.ms ?? 0) + jitter);
        return { ...(await answer()), fault: injected };
      }
      case 'hang':
        return wire({ form: 'hang' }, UNPLAYED);
      case 'reset':
        return wire({ form: 'reset' }, UNPLAYED);
      case 'reset-after-headers':
        return wire({ form: 'reset-after-headers' }, await answer());
      case 'cut-body': {
        const res = await answer();
        const length =
          typeof res.body === 'string' ? new TextEncoder().encode(res.body).byteLength : res.body.byteLength;
        return wire(
          { form: 'cut-body', bytes: Math.max(0, Math.min(length - 1, spec.bytes ?? Math.floor(length / 2))) },
          res,
        );
      }
      case 'malformed-json':
        return { ...malformed(await answer()), fault: injected };
      case 'trickle':
        return wire(
          { form: 'trickle', chunkBytes: spec.chunkBytes ?? 1, intervalMs: spec.intervalMs ?? 100 },
          await answer(),
        );
      default:
        throw new TypeError(`unplayed fault kind ${spec.fault}`);
    }
  }
}

/** What an adapter that cannot play a wire form would send instead: it says so, rather than pass for the API. */
const UNPLAYED: MockResponse = {
  status: 502,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    error: 'fault_not_played',
    message: 'This adapter cannot play the fault armed for this call.',
  }),
};

/** The device a send names (its JSON body's `device_id`), or undefined. */
function deviceOf(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  try {
    const parsed = JSON.parse(body) as { device_id?: unknown };
    return typeof parsed?.device_id === 'string' ? parsed.device_id : undefined;
  } catch {
    return undefined;
  }
}

function targetView(spec: ApiFaultInput): Record<string, string> {
  const view: Record<string, string> = {};
  for (const name of TARGET_KEYS) {
    if (name === 'apiKey') continue;
    if (spec[name] !== undefined) view[name] = spec[name];
  }
  // The key is the caller's own, but lists end up on screens and in logs: its last 4 characters only.
  if (spec.apiKey !== undefined) view.apiKey = spec.apiKey.length >= 12 ? `…${spec.apiKey.slice(-4)}` : '…';
  return view;
}

function detailView(spec: ApiFaultInput): Record<string, string | number> {
  const view: Record<string, string | number> = {};
  for (const name of DETAILS) {
    if (spec[name] !== undefined) view[name] = spec[name];
  }
  return view;
}
