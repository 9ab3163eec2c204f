// The app the SDK's bundle size is judged by: it imports `Linkgate` and calls every resource, as a browser app would.
import { Linkgate, NotFoundError } from '../../src/index.js';

const client = new Linkgate({ apiKey: 'k', baseUrl: 'https://links.example.com', dangerouslyAllowBrowser: true });
/** Calls every resource once. */
export async function main() {
  await client.account.get();
  await client.account.update({ email: 'a@example.com' });
  for await (const d of client.domains.list()) console.log(d);
  await client.domains.create({ domain: 'https://go.example.com' });
  await client.domains.update(1, { redirectroot: 'https://example.com' });
  await client.domains.delete(1);
  await client.splash.list();
  await client.overlays.list().toArray({ max: 10 });
  for await (const p of client.pixels.list().pages()) console.log(p.items);
  await client.pixels.create({ type: 'gtmpixel', name: 'n', tag: 'GTM-1234' });
  await client.pixels.update(1, { tag: 'GTM-1234' });
  await client.pixels.delete(1);
  await client.qr.list();
  await client.qr.get(1);
  await client.qr.create({ type: 'link', data: 'https://example.com' });
  await client.qr.update(1, { data: 'x' });
  await client.qr.delete(1);
  await client.plans.list();
  await client.plans.subscribe(1, 2, { type: 'monthly' });
  await client.users.list({ filter: 'pro' });
  await client.users.get(1);
  await client.users.create({ username: 'dave', email: 'd@example.com', password: 'secret' });
  await client.users.delete(1);
  return NotFoundError;
}
