import type { RequestOptions } from '../../core/api-client.js';
import type { APIPromise } from '../../core/api-promise.js';
import { APIResource } from '../../core/resource.js';
import { listPlans, subscribeUserToPlan } from '../../schemas/operations.js';
import type { Plan } from '../../schemas/plan.js';
import { type ActionResult, callOf } from './shared.js';

// Written out rather than inferred from the `PlanSubscription` schema: the declaration bundler cannot name a type of a
// chunk shared with linkgate/schemas. test/sdk/types.test-d.ts keeps the two the same.
/** The body of {@link PlansResource.subscribe}. */
export interface PlanSubscriptionBody {
  /** The billing period. */
  type: 'monthly' | 'yearly' | 'lifetime';
  /** When the subscription ends, `YYYY-MM-DD HH:MM:SS`. @default derived by the service from `type` */
  expiration?: string | undefined;
}

/** Subscription plans (admin only): `client.plans`. */
export class PlansResource extends APIResource {
  /** Lists every plan (not paged). */
  list(options?: RequestOptions): APIPromise<Plan[]> {
    return this._client.request(() => callOf(listPlans, { options }));
  }

  /**
   * Subscribes a user to a plan; without `expiration` the service derives it from `type`.
   * @example
   * await client.plans.subscribe(2, 17, { type: 'yearly' });
   */
  subscribe(
    planId: number,
    userId: number,
    body: PlanSubscriptionBody,
    options?: RequestOptions,
  ): APIPromise<ActionResult> {
    return this._client.request(() =>
      callOf(subscribeUserToPlan, { path: { planid: planId, userid: userId }, body, options }),
    );
  }
}
