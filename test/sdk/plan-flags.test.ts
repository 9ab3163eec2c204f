// Plans carry the SDK's only booleans (`free`, each feature's `enabled`), declared as a literal of both booleans
// instead of z.boolean() to keep zod's boolean class out of the client bundle: they must read exactly as before.
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/core/validation.js';
import { Plan } from '../../src/schemas/plan.js';

const plan = (free: unknown, enabled: unknown) => ({
  id: 1,
  name: 'Pro',
  free,
  prices: null,
  limits: { custom: { enabled }, team: { enabled, count: '5' } },
});

describe('Plan flags', () => {
  it('reads free and enabled as booleans, numbers or strings, as the service writes them', () => {
    for (const value of [true, false, 0, 1, '0', '1']) {
      expect(Plan.safeParse(plan(value, value)).data).toMatchObject({
        free: value,
        limits: { custom: { enabled: value } },
      });
    }
  });

  it('refuses a flag that is none of them, with the same rule as any other union', () => {
    for (const value of [null, {}, []]) {
      expect(Plan.safeParse(plan(value, true)).success).toBe(false);
      expect(() => validate(Plan, plan(true, value), 'plans.list', 'answer')).toThrow(
        'plans.list: answer.limits.custom.enabled does not match any allowed shape',
      );
    }
  });
});
