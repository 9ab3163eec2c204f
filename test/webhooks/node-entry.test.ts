// linkgate/webhooks under the `node` export condition (src/webhooks/index.node.ts) is the same toolkit as the default
// build (the same entry, re-exported): the same names, the same answers.
import { describe, expect, it } from 'vitest';
import * as plain from '../../src/webhooks/index.js';
import * as forNode from '../../src/webhooks/index.node.js';
import { messageReceived, TENANT_SECRET } from './support/fixtures.js';

describe('linkgate/webhooks for Node', () => {
  it('exports exactly the names of the default build, the same values', () => {
    expect(Object.keys(forNode).sort()).toEqual(Object.keys(plain).sort());
    const forNodeByName = new Map(Object.entries(forNode));
    for (const [name, value] of Object.entries(plain)) expect(forNodeByName.get(name)).toBe(value);
  });

  it('answers a signed delivery and a tampered one as the default build does', async () => {
    const handler = forNode.createWebhookHandler({ secret: TENANT_SECRET, tolerance: false, on: {} });
    const valid = forNode.createTestDelivery({ event: messageReceived, secret: TENANT_SECRET });
    expect((await handler(valid.request)).status).toBe(200);
    const tampered = forNode.createTestDelivery({
      event: messageReceived,
      secret: TENANT_SECRET,
      set: { 'data.has_media': 'yes' },
      allowInvalid: true,
    });
    const answer = await handler(tampered.request);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      code: 'invalid_payload',
      issues: [{ path: ['data', 'has_media'], message: 'Invalid input: expected boolean, received string' }],
    });
  });
});
