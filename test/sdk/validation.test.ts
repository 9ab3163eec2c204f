import { ValidationError } from 'linkgate';
import type { QrCreate } from 'linkgate/schemas';
import { describe, expect, it } from 'vitest';
import { rejectionOf, useMockApi } from './support/harness.js';

describe('arguments are validated before anything is sent', () => {
  const ctx = useMockApi();
  const sentCount = () => {
    const counter = { n: 0 };
    ctx.server.events.on('request:start', () => {
      counter.n++;
    });
    return counter;
  };

  it.each([0, -1, 1.5, Number.NaN, '3', undefined])('rejects the id %s: must be a positive integer', async (id) => {
    const sent = sentCount();
    const error = await rejectionOf(ctx.client().domains.delete(id as number));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: 'id', rule: 'must be a positive integer' });
    expect((error as Error).message).toMatch(/^domains\.delete: id must be a positive integer/);
    expect(sent.n).toBe(0);
  });

  it('names planId or userId when that one is wrong', async () => {
    expect(await rejectionOf(ctx.client().plans.subscribe(1, 0, { type: 'monthly' }))).toMatchObject({
      field: 'userId',
    });
    expect(await rejectionOf(ctx.client().plans.subscribe(-2, 1, { type: 'monthly' }))).toMatchObject({
      field: 'planId',
    });
  });

  it('rejects a paging query that is not a positive integer', async () => {
    const error = await rejectionOf(ctx.client().domains.list({ limit: -5 }));
    expect(error).toMatchObject({ field: 'query.limit', rule: 'must be a positive integer' });
  });

  it('says "is required" for a missing required field', async () => {
    const error = await rejectionOf(ctx.client().pixels.create({ type: 'gapixel', name: 'GA' } as never));
    expect(error).toMatchObject({ field: 'body.tag', rule: 'is required' });
    expect((error as Error).message).toBe('pixels.create: body.tag is required. Fix the argument; nothing was sent.');
  });

  it('lists the allowed QR types for an unknown one', async () => {
    const error = await rejectionOf(ctx.client().qr.create({ type: 'video', data: 'x' } as unknown as QrCreate));
    expect(error).toMatchObject({
      field: 'body.type',
      rule: 'must be one of "text", "link", "email", "phone", "sms", "wifi", "vcard"',
    });
  });

  it('checks QR colours and logo', async () => {
    const error = await rejectionOf(
      ctx.client().qr.create({ type: 'text', data: 'x', background: 'red', logo: 'logo.gif' }),
    );
    expect((error as ValidationError).issues.map((i) => i.path.join('.'))).toEqual(['background', 'logo']);
  });

  it('rejects a bad subscription type with the allowed values', async () => {
    const error = await rejectionOf(ctx.client().plans.subscribe(1, 1, { type: 'weekly' } as never));
    expect(error).toMatchObject({ field: 'body.type', rule: 'must be one of "monthly", "yearly", "lifetime"' });
  });

  it('rejects a user filter outside admin, free, pro', async () => {
    const error = await rejectionOf(ctx.client().users.list({ filter: 'banned' } as never));
    expect(error).toMatchObject({ field: 'query.filter' });
  });

  it('rejects a bad toArray max', async () => {
    const error = await rejectionOf(ctx.client().domains.list().toArray({ max: -1 }));
    expect(error).toMatchObject({ field: 'max' });
  });
});
