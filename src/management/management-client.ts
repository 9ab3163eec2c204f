import { APIClient, type ClientOptions, type ClientProfile } from '../core/api-client.js';
import { classifyManagementAnswer } from './classify.js';
import { AccountResource } from './resources/account.js';
import { DomainsResource } from './resources/domains.js';
import { OverlaysResource } from './resources/overlays.js';
import { PixelsResource } from './resources/pixels.js';
import { PlansResource } from './resources/plans.js';
import { QrResource } from './resources/qr.js';
import { SplashResource } from './resources/splash.js';
import { UsersResource } from './resources/users.js';

/** Options of {@link Linkgate}. */
export type LinkgateOptions = ClientOptions;

const MANAGEMENT: ClientProfile = {
  name: 'Linkgate',
  apiKeyEnv: 'LINKGATE_API_KEY',
  baseUrlEnv: 'LINKGATE_BASE_URL',
  classify: classifyManagementAnswer,
  rateLimit: 'wait',
};

/**
 * The typed client of the link-management API. Shares one rate-limit budget between all its calls, retries
 * transient failures, and turns every failure (including production's HTTP 200 `error: 1` answers) into a typed error.
 *
 * @example
 * import { Linkgate, NotFoundError } from 'linkgate';
 * const client = new Linkgate({ apiKey: process.env.LINKGATE_API_KEY, baseUrl: 'https://links.example.com' });
 * const account = await client.account.get();
 * for await (const domain of client.domains.list()) console.log(domain.domain);
 */
export class Linkgate extends APIClient {
  /** The caller's own account. */
  declare readonly account: AccountResource;
  /** Branded domains. */
  declare readonly domains: DomainsResource;
  /** Custom splash pages (list only). */
  declare readonly splash: SplashResource;
  /** Call-to-action overlays (list only). */
  declare readonly overlays: OverlaysResource;
  /** Tracking pixels. */
  declare readonly pixels: PixelsResource;
  /** QR codes. */
  declare readonly qr: QrResource;
  /** Subscription plans (admin only). */
  declare readonly plans: PlansResource;
  /** Users (admin only). */
  declare readonly users: UsersResource;

  /** @param options - see {@link ClientOptions}; `apiKey` and `baseUrl` default to LINKGATE_API_KEY / LINKGATE_BASE_URL. */
  constructor(options: LinkgateOptions = {}) {
    super(options, MANAGEMENT);
    this.account = new AccountResource(this);
    this.domains = new DomainsResource(this);
    this.splash = new SplashResource(this);
    this.overlays = new OverlaysResource(this);
    this.pixels = new PixelsResource(this);
    this.qr = new QrResource(this);
    this.plans = new PlansResource(this);
    this.users = new UsersResource(this);
  }
}
