import * as z from 'zod/mini';
import type { RequestOptions } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/resource.js';
import { validate, validateId } from '../core/validation.js';
import { dataEnvelope } from '../schemas/envelope.js';
import { Plan, PlanSubscription } from '../schemas/plan.js';
import { type ActionResult, messageCall } from './shared.js';

const PlanListEnvelope = dataEnvelope(z.array(Plan));

/** Subscription plans (admin only): `client.plans`. */
export class PlansResource extends APIResource {
  /** Lists every plan (not paged). */
  list(options?: RequestOptions): APIPromise<Plan[]> {
    return this._client.request(() => ({
      operation: 'plans.list',
      method: 'GET',
      path: '/api/plans',
      schema: PlanListEnvelope,
      select: (answer) => answer.data,
      options,
    }));
  }

  /**
   * Subscribes a user to a plan; without `expiration` the service derives it from `type`.
   * @example
   * await client.plans.subscribe(2, 17, { type: 'yearly' });
   */
  subscribe(
    planId: number,
    userId: number,
    body: PlanSubscription,
    options?: RequestOptions,
  ): APIPromise<ActionResult> {
    return this._client.request(() => {
      const plan = validateId(planId, 'planId', 'plans.subscribe');
      const user = validateId(userId, 'userId', 'plans.subscribe');
      const data = validate(PlanSubscription, body, 'plans.subscribe', 'body');
      return messageCall('plans.subscribe', 'PUT', `/api/plan/${plan}/user/${user}`, data, options);
    });
  }
}
