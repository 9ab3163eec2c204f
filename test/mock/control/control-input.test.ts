// A control endpoint's input is checked from its row's one declaration (mock/http/own-input.ts): the route parses the
// body with the row's zod schema before the handler runs, and a bad field answers 400 naming the field and the rule.
import { describe, expect, it } from 'vitest';
import { controlRoute } from '../../../mock/control/control-answer.js';
import { input, oneOf, requiredText, whole } from '../../../mock/http/own-input.js';

const row = {
  method: 'POST' as const,
  path: '/__mock/example',
  status: 200 as const,
  body: input({ name: requiredText(), times: whole(1, 5), kind: oneOf(['a', 'b']) }),
  query: input({ order: oneOf(['asc', 'desc']) }),
};

/** Calls the row's route with `body` as JSON; returns the answer and what the handler was given. */
async function call(body: unknown, search = '') {
  const seen: unknown[] = [];
  const route = controlRoute(row, (parsed, { query }) => {
    seen.push({ ...parsed, ...query });
    return { ok: true };
  });
  const req = {
    method: 'POST',
    path: row.path,
    query: new URLSearchParams(search),
    headers: {},
    body: JSON.stringify(body),
    origin: 'http://127.0.0.1',
  };
  const res = await route.handle({ req, params: {}, context: undefined });
  return { status: res.status, body: JSON.parse(String(res.body)), seen };
}

describe('a control row’s declared body', () => {
  it('answers a bad field with 400 naming the field and the rule, before the handler runs', async () => {
    expect(await call({ name: 'x', times: 9 })).toEqual({
      status: 400,
      body: {
        error: 'invalid_request',
        field: 'times',
        rule: 'must be an integer from 1 to 5',
        message: 'times must be an integer from 1 to 5',
      },
      seen: [],
    });
    expect((await call({ times: 1 })).body).toMatchObject({ field: 'name', rule: 'is required and must be a string' });
    expect((await call({ name: 'x', times: 1, kind: 'c' })).body).toMatchObject({
      field: 'kind',
      rule: 'must be one of a, b',
    });
  });

  it('checks the query by the row’s declaration too', async () => {
    expect((await call({ name: 'x', times: 1 }, 'order=sideways')).body).toMatchObject({
      field: 'order',
      rule: 'must be one of asc, desc',
    });
    expect((await call({ name: 'x', times: 1 }, 'order=asc')).seen).toEqual([{ name: 'x', times: 1, order: 'asc' }]);
  });

  it('hands the handler the parsed body, extra fields kept and null fields read as not sent', async () => {
    const { status, seen } = await call({ name: 'x', times: 2, kind: null, extra: true });
    expect(status).toBe(200);
    expect(seen).toEqual([{ name: 'x', times: 2, extra: true }]);
  });
});
