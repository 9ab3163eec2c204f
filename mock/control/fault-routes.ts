import type { FaultBook } from '../faults/fault-book.js';
import { parseFault, parsePlan } from '../faults/fault-input.js';
import type { Gateway } from '../gateway/gateway.js';
import type { RouteGroup } from '../http/router.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
import type { FaultOperationId } from './control-operations.js';
import { type ControlHandlers, controlGroup, controlRoutes } from './control-routes.js';

/** What the fault endpoints use of a backend. */
interface FaultHost {
  readonly gateway: Gateway;
  readonly faults: FaultBook;
}

/**
 * `/__mock/faults`: arm faults (one, or a plan: the `--faults` file's format), list what is armed and what fired,
 * disarm one or all. Same token as the rest of `/__mock/`; bad input is a 400 naming the field.
 */
export function faultControlGroup(core: FaultHost): RouteGroup<unknown> {
  return {
    name: 'control-faults',
    guard: controlGroup(core.gateway).guard,
    routes: controlRoutes(faultHandlers(core)),
  };
}

function faultHandlers({ faults }: FaultHost): ControlHandlers<FaultOperationId> {
  return {
    armFaults: (body) => {
      const parsed = body.faults !== undefined ? parsePlan(body) : { seed: undefined, faults: [parseFault(body)] };
      const armed = faults.armParsed(parsed);
      return { armed: faults.deliveries, faults: armed };
    },
    listFaults: () => ({ deliveries: faults.deliveries, faults: faults.list(), fired: faults.fired() }),
    clearFaults: (_body, { query }) => {
      const id = query.id as string | undefined;
      if (id !== undefined && !faults.clear(id)) {
        throw new GatewayInputError(
          'id',
          `names no armed fault ("${id.slice(0, 40)}"); GET /__mock/faults lists them`,
          404,
        );
      }
      return { cleared: id === undefined ? faults.clear() : true };
    },
  };
}
