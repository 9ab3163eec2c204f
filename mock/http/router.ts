import { METHOD_NAME_ALL, type Result } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import { failure, RequestRejection, withHeaders } from './responses.js';
import type { MockRequest, MockResponse } from './types.js';

/** Path parameters of a matched route, e.g. `{ id: '3' }` for `/api/domain/:id/update`. */
export type Params = Record<string, string>;

/** What a route handler receives: the request, its path parameters and what the group's guard established. */
export interface RouteCall<C> {
  /** The request. */
  req: MockRequest;
  /** Path parameters, undecoded beyond percent-escapes. */
  params: Params;
  /** The guard's context (e.g. the authenticated user). */
  context: C;
}

/** One endpoint: a method, a hono-style path pattern (`/api/qr/:id`) and its handler. */
export interface Route<C> {
  /** Upper-case HTTP method. */
  method: string;
  /** Path pattern in hono's syntax. */
  path: string;
  /** The operation it serves (`domains.list`), for routes built from an operation table. */
  operation?: string;
  /** Answers the request; may throw {@link RequestRejection} to answer with a failure. */
  handle(call: RouteCall<C>): MockResponse | Promise<MockResponse>;
}

/** A guard's verdict: proceed with a context, or answer now. `headers` go on every answer either way. */
export type GuardResult<C> =
  | { ok: true; context: C; headers?: Record<string, string> }
  | { ok: false; response: MockResponse; headers?: Record<string, string> };

/**
 * A family of routes sharing one guard: management (API key + rate limit), messaging (messaging keys), control
 * (control token), public images (none). The backend adds one group per line.
 */
export interface RouteGroup<C = unknown> {
  /** Name for diagnostics. */
  name: string;
  /** The group's routes. */
  routes: readonly Route<C>[];
  /** Decides whether a request may reach a route of this group. */
  guard(req: MockRequest): GuardResult<C> | Promise<GuardResult<C>>;
  /**
   * Whether an unknown path lies in this group's space; its guard then runs for the 404/405 answer too, so an
   * authenticated caller still gets (and spends) rate-limit headers. Optional.
   */
  owns?(path: string): boolean;
  /** This group's 404 answer for unknown paths in its space. @default `{"error":1,"message":"Endpoint not found: ..."}` */
  notFound?(req: MockRequest): MockResponse;
}

/**
 * Looks at each request about to run a route (before its guard); a function it returns answers in the route's place,
 * given the route's own answer to call or not (the fault book, mock/faults). Undefined lets the route run as is.
 */
export type RouteInterceptor = (
  req: MockRequest,
  route: Route<unknown>,
) => ((answer: () => Promise<MockResponse>) => Promise<MockResponse>) | undefined;

type Entry =
  | { kind: 'route'; route: Route<unknown>; group: RouteGroup<unknown>; specificity: number }
  | { kind: 'path'; pattern: string; methods: Set<string>; specificity: number };

/**
 * Dispatches mock requests to route groups through hono's SmartRouter (RegExpRouter, TrieRouter as fallback).
 * Answers 404 for unknown paths and 405 (with `Allow`) for known paths asked with another method; HEAD is answered
 * like GET wherever GET is (the adapters send no body). Groups may be
 * added at any time; the matcher is rebuilt on the next request.
 */
export class MockRouter {
  readonly #groups: RouteGroup<unknown>[] = [];
  #matcher: SmartRouter<Entry> | undefined;
  /** See {@link RouteInterceptor}. @internal */
  intercept: RouteInterceptor | undefined;

  /** Adds a group of routes. */
  add<C>(group: RouteGroup<C>): this {
    this.#groups.push(group as RouteGroup<unknown>);
    this.#matcher = undefined;
    return this;
  }

  /** The groups in the order they were added. */
  get groups(): readonly RouteGroup<unknown>[] {
    return this.#groups;
  }

  /**
   * Whether `path` is a path of some route (with any method): the route table itself, so the msw handlers that ask
   * this cannot drift from what the mock answers.
   */
  serves(path: string): boolean {
    return readResult(this.#build().match(METHOD_NAME_ALL, path)).some(([entry]) => entry.kind === 'path');
  }

  /** Routes a request and returns the answer; never throws. */
  async dispatch(req: MockRequest): Promise<MockResponse> {
    try {
      return await this.#dispatch(req);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return failure(
        `The mock backend failed while answering ${req.method} ${req.path}: ${reason}. This is a bug in linkgate's mock; please report it.`,
        { status: 500 },
      );
    }
  }

  async #dispatch(req: MockRequest): Promise<MockResponse> {
    const method = req.method.toUpperCase();
    // HEAD is GET without the body (RFC 9110): the adapters drop the body, the headers stay those of the GET.
    const matches = readResult(this.#build().match(method === 'HEAD' ? 'GET' : method, req.path));
    let best: { entry: Extract<Entry, { kind: 'route' }>; params: Params } | undefined;
    let path: Extract<Entry, { kind: 'path' }> | undefined;
    for (const [entry, params] of matches) {
      if (entry.kind === 'route') {
        if (!best || entry.specificity < best.entry.specificity) best = { entry, params };
      } else if (!path || entry.specificity < path.specificity) {
        path = entry;
      }
    }
    // A literal path beats a parameter: GET /api/qr/add is POST-only, not GET /api/qr/:id with id "add".
    if (best && (!path || best.entry.specificity <= path.specificity)) {
      const { group, route } = best.entry;
      const params = best.params;
      const around = this.intercept?.(req, route);
      return around ? around(() => this.#run(group, route, req, params)) : this.#run(group, route, req, params);
    }
    return this.#unmatched(req, method, path ? withHead([...path.methods]) : undefined);
  }

  async #run(group: RouteGroup<unknown>, route: Route<unknown>, req: MockRequest, params: Params) {
    const verdict = await group.guard(req);
    const headers = verdict.headers ?? {};
    if (!verdict.ok) return withHeaders(verdict.response, headers);
    let response: MockResponse;
    try {
      response = await route.handle({ req, params, context: verdict.context });
    } catch (error) {
      if (!(error instanceof RequestRejection)) throw error;
      response = error.response;
    }
    return withHeaders(response, headers);
  }

  async #unmatched(req: MockRequest, method: string, allowed: string[] | undefined): Promise<MockResponse> {
    const group = this.#groups.find((g) => g.owns?.(req.path));
    let response: MockResponse;
    if (allowed && method === 'OPTIONS') {
      response = { status: 204, headers: { Allow: [...allowed, 'OPTIONS'].join(', ') }, body: '' };
    } else if (allowed) {
      response = failure(`Method not allowed: ${method} ${req.path}. Use ${allowed.join(' or ')}.`, {
        status: 405,
        headers: { Allow: allowed.join(', ') },
      });
    } else {
      response = group?.notFound?.(req) ?? failure(`Endpoint not found: ${method} ${req.path}`, { status: 404 });
    }
    if (!group || method === 'OPTIONS') return response;
    const verdict = await group.guard(req);
    // An authenticated caller keeps seeing its rate-limit headers (and over the limit, the limit answer).
    if (!verdict.ok) return verdict.headers ? withHeaders(verdict.response, verdict.headers) : response;
    return withHeaders(response, verdict.headers ?? {});
  }

  #build(): SmartRouter<Entry> {
    if (this.#matcher) return this.#matcher;
    const matcher = new SmartRouter<Entry>({ routers: [new RegExpRouter(), new TrieRouter()] });
    const paths = new Map<string, Extract<Entry, { kind: 'path' }>>();
    for (const group of this.#groups) {
      for (const route of group.routes) {
        const method = route.method.toUpperCase();
        const specificity = paramCount(route.path);
        matcher.add(method, route.path, { kind: 'route', route, group, specificity });
        let entry = paths.get(route.path);
        if (!entry) {
          entry = { kind: 'path', pattern: route.path, methods: new Set(), specificity };
          paths.set(route.path, entry);
          matcher.add(METHOD_NAME_ALL, route.path, entry);
        }
        entry.methods.add(method);
      }
    }
    this.#matcher = matcher;
    return matcher;
  }
}

/** The methods a path allows, with HEAD wherever GET is. */
function withHead(methods: string[]): string[] {
  return methods.includes('GET') && !methods.includes('HEAD') ? [...methods, 'HEAD'] : methods;
}

function paramCount(pattern: string): number {
  return (pattern.match(/[:*]/g) ?? []).length;
}

/** Hono routers answer in one of two shapes (param index map + stash, or params); this reads both. */
function readResult(result: Result<Entry>): [Entry, Params][] {
  const [handlers, stash] = result as [[Entry, Record<string, number | string>][], string[] | undefined];
  return handlers.map(([entry, map]) => {
    const params: Params = {};
    for (const [name, value] of Object.entries(map)) {
      params[name] = decode(stash && typeof value === 'number' ? (stash[value] ?? '') : String(value));
    }
    return [entry, params];
  });
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
