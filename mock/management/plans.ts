import { type ManagementOperationId, subscribeUserToPlan } from '../../src/schemas/operations.js';
import { SUBSCRIPTION_TYPES } from '../../src/schemas/plan.js';
import type { Handlers } from '../http/operation-route.js';
import { RequestRejection, success } from '../http/responses.js';
import { addMonths, formatDate, parseDate } from './calendar.js';
import { toPlan } from './records.js';
import { parseWith, readId, readJsonBody, rejectField } from './request-validation.js';
import type { ManagementContext } from './route-context.js';

/** Months each billing period adds when no explicit expiration is sent (observed; lifetime is ten years). */
const PERIOD_MONTHS = { monthly: 1, yearly: 12, lifetime: 120 } as const;

/** Plans (admin only): list, and subscribe a user to a plan. */
export const planHandlers = {
  'plans.list': ({ context }) => success({ data: [...context.core.store.plans.values()].map(toPlan) }),
  'plans.subscribe'({ req, params, context }) {
    const { core } = context;
    const planId = readId(params, 'planid');
    const userId = readId(params, 'userid');
    const raw = readJsonBody(req);
    if (!SUBSCRIPTION_TYPES.includes(raw.type as never)) {
      throw new RequestRejection('API request is missing the type parameter.', {
        issues: [`type: must be one of ${SUBSCRIPTION_TYPES.map((t) => `"${t}"`).join(', ')}`],
      });
    }
    const body = parseWith(subscribeUserToPlan.body, raw);
    if (body.expiration !== undefined && parseDate(body.expiration) === undefined) {
      rejectField('expiration', 'must be a real date in the form YYYY-MM-DD HH:MM:SS');
    }
    const plan = core.store.plans.get(planId);
    if (!plan) throw new RequestRejection('Plan does not exist.');
    const user = core.store.users.get(userId);
    if (!user) throw new RequestRejection('User does not exist.');
    user.planid = plan.id;
    user.status = plan.free ? 'free' : 'pro';
    user.expires = body.expiration ?? formatDate(addMonths(core.clock.now(), PERIOD_MONTHS[body.type]));
    return success({ message: 'User has been subscribed to this plan.' });
  },
} satisfies Partial<Handlers<ManagementOperationId, ManagementContext>>;
