import type { EventName } from '../../src/schemas/events.js';
import { checkedUnder, GatewayInputError } from '../shared/gateway-input-error.js';
import {
  createWebhookEndpoint,
  DEFAULT_TENANT_EVENTS,
  type WebhookEndpoint,
  type WebhookEndpointInput,
} from './webhook-endpoint.js';

/** A routing decision: the endpoint to use and the events it takes, or why nothing is delivered. */
export type WebhookRoute = { endpoint: WebhookEndpoint } | { endpoint: null; reason: 'no_endpoint' | 'not_selected' };

/**
 * Which receiver gets an event (spec, Routing): a device with its own URL receives only its own events there, with
 * the `whsec_dev_` secret; every other device's events go to the tenant URL with the `whsec_live_` secret. A device
 * endpoint without a selection inherits the tenant's.
 */
export class WebhookRouting {
  readonly #tenants = new Map<string, WebhookEndpoint>();
  readonly #devices = new Map<string, WebhookEndpoint>();
  readonly #random: () => number;
  readonly #allowHttp: boolean;

  /** @param options.allowHttpReceivers - accept plain-http receiver URLs on any host, not only loopback. */
  constructor(random: () => number, options: { allowHttpReceivers?: boolean } = {}) {
    this.#random = random;
    this.#allowHttp = options.allowHttpReceivers ?? false;
  }

  /** Sets (or replaces) a tenant's default endpoint. */
  setTenant(tenant: string, input: WebhookEndpointInput): WebhookEndpoint {
    const endpoint = createWebhookEndpoint('tenant', input, this.#random, this.#allowHttp);
    this.#tenants.set(tenant, endpoint);
    return endpoint;
  }

  /** Sets (or replaces) a device's override endpoint. */
  setDevice(deviceId: string, input: WebhookEndpointInput): WebhookEndpoint {
    const endpoint = createWebhookEndpoint('device', input, this.#random, this.#allowHttp);
    this.#devices.set(deviceId, endpoint);
    return endpoint;
  }

  /** Removes a tenant endpoint; returns whether there was one. */
  removeTenant(tenant: string): boolean {
    return this.#tenants.delete(tenant);
  }

  /** Removes a device override; its events fall back to the tenant endpoint. */
  removeDevice(deviceId: string): boolean {
    return this.#devices.delete(deviceId);
  }

  /** The tenant endpoint, if any. */
  tenant(tenant: string): WebhookEndpoint | undefined {
    return this.#tenants.get(tenant);
  }

  /** The device override, if any. */
  device(deviceId: string): WebhookEndpoint | undefined {
    return this.#devices.get(deviceId);
  }

  /** Decides where `event` of `deviceId` (belonging to `tenant`) goes. */
  route(tenant: string, deviceId: string, event: EventName): WebhookRoute {
    const tenantEndpoint = this.#tenants.get(tenant);
    const deviceEndpoint = this.#devices.get(deviceId);
    const endpoint = deviceEndpoint ?? tenantEndpoint;
    if (!endpoint) return { endpoint: null, reason: 'no_endpoint' };
    const selection = endpoint.events ?? tenantEndpoint?.events ?? null;
    // A device endpoint inheriting from a tenant without an endpoint falls back to the catalog's defaults.
    const effective = selection ?? DEFAULT_TENANT_EVENTS;
    if (!effective.includes(event)) return { endpoint: null, reason: 'not_selected' };
    return { endpoint };
  }

  /** Every tenant endpoint, by tenant. */
  listTenants(): ({ tenant: string } & WebhookEndpoint)[] {
    return [...this.#tenants].map(([tenant, e]) => ({ tenant, ...e }));
  }

  /** Every device override, by device id. */
  listDevices(): ({ device_id: string } & WebhookEndpoint)[] {
    return [...this.#devices].map(([device_id, e]) => ({ device_id, ...e }));
  }

  /** Forgets every endpoint. */
  clear(): void {
    this.#tenants.clear();
    this.#devices.clear();
  }

  /** Every endpoint with its secret, as plain data (what a state snapshot holds). @internal */
  exportState(): WebhookRoutingState {
    return { tenants: this.listTenants(), devices: this.listDevices() };
  }

  /**
   * A new routing with this one's settings holding the endpoints of `state`, each checked by the rules of
   * {@link setTenant} and {@link setDevice}; throws a {@link GatewayInputError} naming `tenants[i].<field>` or
   * `devices[i].<field>`. Swap it in with {@link replaceWith}.
   * @internal
   */
  withState(state: WebhookRoutingState): WebhookRouting {
    const routing = new WebhookRouting(this.#random, { allowHttpReceivers: this.#allowHttp });
    const each = <T extends { url: string; secret: string; events: readonly string[] | null }>(
      list: 'tenants' | 'devices',
      rows: T[],
      set: (row: T) => void,
    ) => {
      for (const [i, row] of rows.entries()) checkedUnder(`${list}[${i}]`, () => set(row));
    };
    const input = (row: { url: string; secret: string; events: readonly string[] | null }) => ({
      url: row.url,
      secret: row.secret,
      ...(row.events === null ? {} : { events: row.events }),
    });
    each('tenants', state.tenants, (row) => routing.setTenant(row.tenant, input(row)));
    each('devices', state.devices, (row) => routing.setDevice(row.device_id, input(row)));
    return routing;
  }

  /** Takes every endpoint of `other` (built by `withState`); cannot fail. @internal */
  replaceWith(other: WebhookRouting): void {
    this.clear();
    for (const [tenant, endpoint] of other.#tenants) this.#tenants.set(tenant, endpoint);
    for (const [device, endpoint] of other.#devices) this.#devices.set(device, endpoint);
  }
}

/** A {@link WebhookRouting} as plain data: tenant endpoints and device overrides, with their secrets. */
export interface WebhookRoutingState {
  tenants: ({ tenant: string } & WebhookEndpoint)[];
  devices: ({ device_id: string } & WebhookEndpoint)[];
}
