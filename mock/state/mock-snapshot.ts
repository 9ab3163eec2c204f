// A backend's whole state as one JSON document (`GET/PUT /__mock/snapshot`, `backend.snapshot()/restore()`, the
// `--state` file): the management tables and the gateway's configuration. Restoring checks everything first, on
// scratch copies, and only then swaps it in, so a refused snapshot changes nothing.

import { EVENT_NAMES } from '../../src/schemas/events.js';
import type { Clock } from '../../src/shared/clock.js';
import type { DeadLetter, DeadLetterQueueState } from '../delivery/dead-letter-queue.js';
import type { WebhookRoutingState } from '../delivery/webhook-routing.js';
import type { Gateway } from '../gateway/gateway.js';
import type { RateLimiter } from '../management/rate-limit.js';
import type { MockStore, StoreSnapshot } from '../management/store.js';
import { DeviceRegistry, type DeviceRegistryState } from '../messaging/device-registry.js';
import { checkTenant, MessagingKeyring, type MessagingKeyringState } from '../messaging/messaging-keyring.js';
import { checkedUnder, GatewayInputError } from '../shared/gateway-input-error.js';
import {
  arrayOf,
  flag,
  type Json,
  nullOr,
  objectWith,
  oneOf,
  refusePrototypeKeys,
  text,
  whole,
} from './snapshot-fields.js';
import { readStoreSnapshot } from './store-rows.js';

/** What every snapshot says it is, so a file of something else is recognised as such. */
export const SNAPSHOT_FORMAT = 'linkgate-mock-state';

/**
 * The version of the snapshot format this linkgate writes and reads. It changes only when a field changes meaning or
 * goes; a reader refuses another version with what to do (there is no older version to migrate from yet).
 */
export const SNAPSHOT_VERSION = 1;

/**
 * The whole state of a mock backend as plain JSON: the management tables with their id counters, and the gateway's
 * messaging keys (as SHA-256 digests), devices, webhook endpoints (with their secrets) and dead letters. It holds
 * secrets (API keys, webhook secrets, passwords): keep it like a credentials file.
 *
 * Not held, on purpose: attempts in flight and scheduled retries (timers and open connections of this process; put
 * into another they would fire at the wrong time or twice; drain first, dead letters are kept and replayable), the
 * clock (a restored state keeps its record dates; time goes on from the clock of the server restoring it), rate-limit
 * windows (a minute's budget, not data), recorded attempts, circuits, dropped events, sent messages, stored media,
 * pairing sessions and armed faults (a session's traffic, not its set-up), and the control token (the server's).
 */
export interface MockSnapshot {
  /** Always `linkgate-mock-state`. */
  format: typeof SNAPSHOT_FORMAT;
  /** The snapshot format of the linkgate that wrote it (1 today). */
  version: number;
  /** Users, domains, pixels, QR codes, splash pages, overlays, plans and the id counters. */
  store: StoreSnapshot;
  /** The messaging gateway's configuration and dead letters. */
  gateway: {
    keys: MessagingKeyringState;
    devices: DeviceRegistryState;
    webhooks: WebhookRoutingState;
    deadLetters: DeadLetterQueueState;
  };
}

/** What a snapshot is taken from and restored into: the backend's store, gateway and what they use. */
export interface SnapshotHost {
  readonly store: MockStore;
  readonly gateway: Gateway;
  readonly clock: Clock;
  readonly rateLimiter: RateLimiter | undefined;
  random(): number;
}

/** The state of `core` as a {@link MockSnapshot}: a deep copy, safe to keep, serialise or change. */
export function takeSnapshot(core: SnapshotHost): MockSnapshot {
  const { gateway } = core;
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    store: core.store.snapshot(),
    gateway: {
      keys: gateway.keys.exportState(),
      devices: gateway.devices.exportState(),
      webhooks: structuredClone(gateway.routing.exportState()),
      deadLetters: gateway.deadLetters.exportState(),
    },
  };
}

/**
 * Checks `value` as a snapshot for `core` and returns what puts it in place, which cannot fail; throws a
 * {@link GatewayInputError} naming the first wrong field (`snapshot.store.users[2].email`) otherwise. The same rules
 * as the routes that create those rows, on scratch copies: nothing of `core` is touched until the returned call.
 */
export function prepareRestore(core: SnapshotHost, value: unknown): () => void {
  const at = 'snapshot';
  refusePrototypeKeys(value, at);
  const doc = readHeader(value, at);
  const store = readStoreSnapshot(doc.store, `${at}.store`);
  const parts = objectWith(doc.gateway, `${at}.gateway`, ['keys', 'devices', 'webhooks', 'deadLetters']);
  const { gateway } = core;
  const keyState = readKeys(parts.keys, `${at}.gateway.keys`);
  const keys = checkedUnder(`${at}.gateway.keys`, () =>
    MessagingKeyring.fromState(core.clock, () => core.random(), keyState),
  );
  const deviceState = readDevices(parts.devices, `${at}.gateway.devices`);
  const devices = checkedUnder(`${at}.gateway.devices`, () => DeviceRegistry.fromState(core.clock, deviceState));
  const webhookState = readWebhooks(parts.webhooks, `${at}.gateway.webhooks`);
  webhookState.devices.forEach((row, i) => {
    if (!devices.get(row.device_id)) {
      throw new GatewayInputError(
        `${at}.gateway.webhooks.devices[${i}].device_id`,
        'names no device of gateway.devices',
      );
    }
  });
  const routing = checkedUnder(`${at}.gateway.webhooks`, () => gateway.routing.withState(webhookState));
  const deadLetterState = readDeadLetters(parts.deadLetters, `${at}.gateway.deadLetters`);
  const deadLetters = checkedUnder(`${at}.gateway.deadLetters`, () => gateway.deadLetters.withState(deadLetterState));
  return () => {
    // The rows were built by the checks, for this store alone: no copy needed.
    core.store.adopt(store);
    core.rateLimiter?.clear();
    // What was in progress belonged to the state being replaced: attempts, retries, messages, media, pairing.
    gateway.reset();
    gateway.keys.replaceWith(keys);
    gateway.devices.replaceWith(devices);
    gateway.routing.replaceWith(routing);
    gateway.deadLetters.replaceWith(deadLetters);
  };
}

/** The format and version checks, first: a foreign document is named as such before any of its fields. */
function readHeader(value: unknown, at: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new GatewayInputError(at, 'must be a JSON object (what GET /__mock/snapshot returns)');
  }
  const doc = value as Json;
  if (doc.format !== SNAPSHOT_FORMAT) {
    throw new GatewayInputError(
      `${at}.format`,
      `must be "${SNAPSHOT_FORMAT}": this is not a linkgate mock snapshot (take one with GET /__mock/snapshot)`,
    );
  }
  if (doc.version !== SNAPSHOT_VERSION) {
    const newer = typeof doc.version === 'number' && doc.version > SNAPSHOT_VERSION;
    throw new GatewayInputError(
      `${at}.version`,
      `is ${JSON.stringify(doc.version)}, and this linkgate reads snapshot format ${SNAPSHOT_VERSION} only: ${
        newer
          ? 'it was written by a newer linkgate; upgrade linkgate to read it'
          : 'no linkgate wrote that version; take a new snapshot'
      }, or start without it to begin from the seed`,
    );
  }
  return objectWith(value, at, ['format', 'version', 'store', 'gateway']);
}

function readKeys(value: unknown, at: string): MessagingKeyringState {
  const row = objectWith(value, at, ['seq', 'keys']);
  return {
    seq: whole(row, 'seq', at),
    keys: arrayOf(row.keys, `${at}.keys`, (item, p) => {
      const key = objectWith(item, p, ['id', 'tenant', 'label', 'preview', 'revoked', 'createdAt', 'digest']);
      return {
        id: text(key, 'id', p),
        tenant: text(key, 'tenant', p),
        label: text(key, 'label', p),
        preview: text(key, 'preview', p),
        revoked: flag(key, 'revoked', p),
        createdAt: whole(key, 'createdAt', p),
        digest: text(key, 'digest', p),
      };
    }),
  };
}

function readDevices(value: unknown, at: string): DeviceRegistryState {
  const row = objectWith(value, at, ['seq', 'devices']);
  return {
    seq: whole(row, 'seq', at),
    devices: arrayOf(row.devices, `${at}.devices`, (item, p) => {
      const device = objectWith(item, p, ['id', 'tenant', 'name', 'phone', 'status', 'createdAt']);
      // Types only: DeviceRegistry.fromState applies the registry's rules to each field.
      return {
        id: text(device, 'id', p),
        tenant: text(device, 'tenant', p),
        name: text(device, 'name', p),
        phone: text(device, 'phone', p),
        status: text(device, 'status', p) as DeviceRegistryState['devices'][number]['status'],
        createdAt: whole(device, 'createdAt', p),
      };
    }),
  };
}

function readWebhooks(value: unknown, at: string): WebhookRoutingState {
  const row = objectWith(value, at, ['tenants', 'devices']);
  const endpoint = (item: unknown, p: string, owner: 'tenant' | 'device_id') => {
    const e = objectWith(item, p, [owner, 'kind', 'url', 'secret', 'events']);
    const kind = oneOf(e, 'kind', p, [owner === 'tenant' ? 'tenant' : 'device']);
    const events = nullOr(e, 'events', p, (r, k, a) =>
      arrayOf(r[k], `${a}.${k}`, (name, q) => {
        if (!(EVENT_NAMES as readonly unknown[]).includes(name)) {
          throw new GatewayInputError(q, `must be one of ${EVENT_NAMES.join(', ')}`);
        }
        return name as (typeof EVENT_NAMES)[number];
      }),
    );
    if (kind === 'tenant' && events === null)
      throw new GatewayInputError(`${p}.events`, 'must be a list for a tenant endpoint');
    return { owner: text(e, owner, p), kind, url: text(e, 'url', p), secret: text(e, 'secret', p), events };
  };
  return {
    tenants: arrayOf(row.tenants, `${at}.tenants`, (item, p) => {
      const { owner, kind, ...rest } = endpoint(item, p, 'tenant');
      return { tenant: checkTenant(owner, `${p}.tenant`), kind: 'tenant' as const, ...rest };
    }),
    devices: arrayOf(row.devices, `${at}.devices`, (item, p) => {
      const { owner, kind, ...rest } = endpoint(item, p, 'device_id');
      return { device_id: owner, kind: 'device' as const, ...rest };
    }),
  };
}

function readDeadLetters(value: unknown, at: string): DeadLetterQueueState {
  const row = objectWith(value, at, ['items', 'evicted']);
  const items = arrayOf(row.items, `${at}.items`, (item, p): DeadLetter => {
    const d = objectWith(item, p, [
      'deliveryId',
      'tenant',
      'deviceId',
      'event',
      'body',
      'url',
      'reason',
      'attempts',
      'lastStatus',
      'lastResponse',
      'at',
    ]);
    return {
      deliveryId: text(d, 'deliveryId', p, (v) => (v === '' ? 'must not be empty' : undefined)),
      tenant: checkTenant(d.tenant, `${p}.tenant`),
      deviceId: text(d, 'deviceId', p),
      event: oneOf(d, 'event', p, EVENT_NAMES),
      body: text(d, 'body', p),
      url: text(d, 'url', p),
      reason: oneOf(d, 'reason', p, ['exhausted', 'rejected']),
      attempts: whole(d, 'attempts', p),
      lastStatus: nullOr(d, 'lastStatus', p, whole),
      lastResponse: text(d, 'lastResponse', p),
      at: whole(d, 'at', p),
    };
  });
  const evicted = objectWith(row.evicted, `${at}.evicted`, Object.keys(row.evicted ?? {}));
  return {
    items,
    evicted: Object.fromEntries(
      Object.keys(evicted).map((tenant) => [
        checkTenant(tenant, `${at}.evicted`),
        whole(evicted, tenant, `${at}.evicted`),
      ]),
    ),
  };
}
