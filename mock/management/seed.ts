import { addMonths, formatDate } from './calendar.js';
import type { MockStore, PlanLimitsRow } from './store.js';

/** What seeding needs from the backend options. */
export interface SeedOptions {
  /** Which data set. */
  seed: 'empty' | 'demo';
  /** The admin's key, or undefined to generate one. */
  adminKey: string | undefined;
  /** The clock, for dates relative to "now". */
  clock: { now(): number };
}

/**
 * Fills a store. `empty`: the admin user alone (no plans; add some with `store.addPlan`). `demo`: the admin, two
 * normal users (alice on pro, bob on free) with domains, pixels, QR codes with statistics, splash pages and
 * overlays, and the plans Free and Pro.
 */
export function seedStore(store: MockStore, options: SeedOptions): { adminKey: string } {
  const demo = options.seed === 'demo';
  const now = options.clock.now();
  const admin = store.addUser({
    username: 'admin',
    email: 'admin@example.com',
    password: 'admin-password',
    admin: true,
    ...(options.adminKey ? { apikey: options.adminKey } : {}),
  });
  if (!demo) return { adminKey: admin.apikey };

  const free = store.addPlan({ name: 'Free', free: true, prices: null, limits: FREE_LIMITS });
  const pro = store.addPlan({
    name: 'Pro',
    free: false,
    prices: { monthly: 9.99, yearly: 99, lifetime: 299 },
    limits: PRO_LIMITS,
  });
  Object.assign(admin, { planid: pro.id, status: 'pro' });

  const alice = store.addUser({
    username: 'alice',
    email: 'alice@example.com',
    password: 'alice-password',
    planid: pro.id,
    status: 'pro',
    expires: formatDate(addMonths(now, 1)),
  });
  const bob = store.addUser({
    username: 'bob_smith',
    email: 'bob@example.com',
    password: 'bob-password',
    planid: free.id,
  });

  store.addDomain(alice.id, {
    domain: 'https://go.alice.example',
    redirectroot: 'https://alice.example',
    redirect404: 'https://alice.example/404',
  });
  store.addDomain(alice.id, { domain: 'https://links.alice.example', redirectroot: 'https://alice.example/links' });
  store.addDomain(bob.id, { domain: 'https://bob.example' });

  store.addPixel(alice.id, { type: 'fbpixel', name: 'Facebook main', tag: '123456789012345' });
  store.addPixel(alice.id, { type: 'gtmpixel', name: 'Tag Manager', tag: 'GTM-ABC1234' });
  store.addPixel(alice.id, { type: 'gapixel', name: 'Analytics', tag: 'G-ALICE123' });
  store.addPixel(bob.id, { type: 'twitterpixel', name: 'Twitter ads', tag: 'o1abc' });

  store.addQr(alice.id, {
    type: 'link',
    data: 'https://alice.example/menu',
    name: 'Restaurant menu',
    foreground: 'rgb(20,40,120)',
    stats: {
      clicks: 42,
      uniqueClicks: 31,
      topCountries: { 'United States': '18', Germany: '11', France: '7', Canada: '6' },
      topReferrers: { 'Direct, email and other': '25', 'https://twitter.com': '10', 'https://facebook.com': '7' },
      topBrowsers: { Chrome: '24', Safari: '12', Firefox: '6' },
      topOs: { iOS: '15', Android: '14', Windows: '9', 'Mac OS X': '4' },
      socialCount: { facebook: 7, twitter: 10, instagram: 2 },
    },
  });
  store.addQr(alice.id, {
    type: 'wifi',
    data: { ssid: 'Alice Cafe', pass: 'espresso123', encryption: 'WPA' },
    name: 'Cafe Wi-Fi',
    stats: {
      clicks: 5,
      uniqueClicks: 5,
      topCountries: { 'United States': '5' },
      topBrowsers: { Safari: '3', Chrome: '2' },
      topOs: { iOS: '3', Android: '2' },
    },
  });
  store.addQr(alice.id, {
    type: 'vcard',
    data: { fname: 'Alice', lname: 'Example', org: 'Alice Inc.', phone: '+15551234567', email: 'alice@example.com' },
    name: 'Business card',
  });
  store.addQr(bob.id, { type: 'text', data: 'Hello from Bob', name: 'Greeting' });

  store.addSplash(alice.id, { name: 'Spring sale' });
  store.addSplash(alice.id, { name: 'Newsletter sign-up' });
  store.addSplash(bob.id, { name: 'Welcome' });

  store.addOverlay(alice.id, { type: 'message', name: 'Free shipping banner' });
  store.addOverlay(alice.id, { type: 'contact', name: 'Contact us' });
  store.addOverlay(bob.id, { type: 'message', name: 'Hello bar' });

  return { adminKey: admin.apikey };
}

const on = { enabled: '1' } as const;
const off = { enabled: '0' } as const;

const FREE_LIMITS: PlanLimitsRow = {
  links: 100,
  clicks: 10_000,
  retention: 30,
  custom: off,
  multiple: off,
  alias: on,
  device: off,
  geo: off,
  bundle: on,
  parameters: off,
  export: off,
  api: on,
  team: { enabled: '0', count: '0' },
  splash: { enabled: '1', count: '1' },
  overlay: { enabled: '0', count: '0' },
  pixels: { enabled: '1', count: '1' },
  domain: { enabled: '0', count: '0' },
};

const PRO_LIMITS: PlanLimitsRow = {
  links: 10_000,
  clicks: 1_000_000,
  retention: 365,
  custom: on,
  multiple: on,
  alias: on,
  device: on,
  geo: on,
  bundle: on,
  parameters: on,
  export: on,
  api: on,
  team: { enabled: '1', count: '5' },
  splash: { enabled: '1', count: '10' },
  overlay: { enabled: '1', count: '10' },
  pixels: { enabled: '1', count: '20' },
  domain: { enabled: '1', count: '5' },
};
