// The inspector shows the armed faults and each call a fault changed, live: the feed's `faults` section.
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../../mock/adapters/node-server.js';
import { inspectorPage } from '../../../mock/inspector/inspector-page.js';
import { openFeed } from '../inspector/feed-reader.js';

const TOKEN = 'ctl_inspector_faults_token';

describe('the inspector’s faults section', () => {
  let server: MockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('lists the armed faults and, as they happen, the calls they changed', async () => {
    server = await startMockServer({ seed: 'demo', gateway: { controlToken: TOKEN } });
    const feed = await openFeed(server.url, TOKEN);
    try {
      const first = await feed.next('snapshot');
      expect(first.data.faults).toEqual({ deliveries: 0, armedCount: 0, armed: [], fired: [] });
      const armedAt = feed.events.length;
      await fetch(`${server.url}/__mock/faults`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'db down', operation: 'listDomains', fault: 'status', status: 503, times: 2 }),
      });
      const armed = await feed.next('faults', (d) => d.armedCount === 1, 5_000, armedAt);
      expect(armed.data.armed[0]).toMatchObject({ id: 'f1', name: 'db down', fault: 'status', times: 2, fired: 0 });
      const firedAt = feed.events.length;
      await fetch(`${server.url}/api/domains`, { headers: { authorization: `Bearer ${server.backend.adminKey}` } });
      const fired = await feed.next('faults', (d) => d.fired.length === 1, 5_000, firedAt);
      expect(fired.data.fired[0]).toMatchObject({
        rule: 'f1',
        name: 'db down',
        operation: 'listDomains',
        path: '/api/domains',
      });
      expect(fired.data.armed[0]).toMatchObject({ seen: 1, fired: 1 });
    } finally {
      feed.close();
    }
  });

  it('has a place for them on the page', () => {
    expect(inspectorPage()).toContain('<h2 id="h-faults">Faults</h2>');
  });
});
