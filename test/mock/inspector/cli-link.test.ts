import { describe, expect, it } from 'vitest';
import { startCli } from '../../e2e/support/processes.js';
import { openFeed } from './feed-reader.js';

const TOKEN = 'ctl_cli_link_token_42';

describe('linkgate mock serves the inspector', () => {
  it('prints a link carrying the token in the fragment, serves a page without data, and never logs the token', async () => {
    const cli = await startCli(['--control-token', TOKEN, '--device', 'dev_a']);
    try {
      const [, link] = await cli.printed(/Inspector[^:]*: (\S+)/);
      expect(link).toBe(`${cli.url}/#token=${TOKEN}`);
      const bannerEnd = (await cli.printed(/Stop with Ctrl\+C\.[^\n]*\n/)).index! + 1;

      // What the browser asks for: the fragment stays in the browser.
      const page = await fetch(`${cli.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).not.toContain(TOKEN);
      expect(html).not.toMatch(/alice|dev_a/);
      expect(html).toMatch(/#token=/);

      const feed = await openFeed(cli.url, TOKEN);
      const { data } = await feed.next('snapshot');
      expect(data.devices.devices.map((d: { id: string }) => d.id)).toEqual(['dev_a']);
      const control = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
      // Even a token put in a query string stays out of the log: it prints paths only.
      await fetch(`${cli.url}/__mock/simulate/status?token=${TOKEN}`, {
        method: 'POST',
        headers: control,
        body: JSON.stringify({ device_id: 'dev_a', status: 'OFFLINE' }),
      });
      await feed.next('devices', (d) => d.devices[0].status === 'OFFLINE');
      feed.close();
      await cli.printed(/POST \/__mock\/simulate\/status 200 control token/);

      const log = cli.out().slice(bannerEnd);
      expect(log).toMatch(/GET \/ 200 no key/);
      expect(log).not.toContain(TOKEN);
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  }, 30_000);
});
