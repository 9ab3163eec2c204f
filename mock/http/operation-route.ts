import type { Operation } from '../../src/schemas/operation.js';
import type { Route } from './router.js';

/** One handler per operation of a table, keyed by the operation's id: a missing or unknown id fails to compile. */
export type Handlers<Id extends string, C> = Record<Id, Route<C>['handle']>;

/** An OpenAPI path template in the router's syntax: `/api/qr/{id}` -> `/api/qr/:id`. */
export function routerPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

/** The route serving `op` with `handle`: method and path come from the operation's one declaration. */
export function operationRoute<C>(op: Operation, handle: Route<C>['handle']): Route<C> {
  return { method: op.method, path: routerPath(op.path), operation: op.id, handle };
}
