// What the inspector page shows, read from the backend's own accessors: one plain JSON object, cut into sections.
import type { BackendCore } from '../backend.js';
import type { AttemptRecord } from '../delivery/delivery-attempt.js';
import { redactSecret } from '../delivery/redact-secret.js';
import { RETRY_DELAYS_MS } from '../delivery/retry-schedule.js';
import { QR_IMAGE_ROUTE } from '../management/qr-image-route.js';
import type { PublishedLog } from './published-log.js';

/** Deliveries the timeline keeps (newest); older ones stay readable at `GET /__mock/attempts`. */
export const TIMELINE_DELIVERIES = 40;

/** The inspector's view of the backend, one key per section; each section is sent again whole when it changes. */
export interface InspectorSnapshot {
  clock: { kind: 'real' | 'manual'; now: number; nextDueAt: number | null };
  data: ReturnType<typeof dataSection>;
  rate: ReturnType<typeof rateSection>;
  webhooks: ReturnType<typeof webhookSection>;
  deliveries: ReturnType<typeof deliverySection>;
  deadLetters: ReturnType<typeof deadLetterSection>;
  devices: ReturnType<typeof deviceSection>;
  messages: ReturnType<PublishedLog['messages']>;
  faults: ReturnType<typeof faultSection>;
}

/** The names of the snapshot's sections, in the order the page lays them out. */
export type SectionName = keyof InspectorSnapshot;

/** Reads every section now. */
export function takeSnapshot(backend: BackendCore, log: PublishedLog): InspectorSnapshot {
  const { gateway } = backend;
  const manual = typeof (backend.clock as { advance?: unknown }).advance === 'function';
  const scheduled = gateway.scheduled();
  return {
    clock: { kind: manual ? 'manual' : 'real', now: backend.clock.now(), nextDueAt: scheduled[0]?.at ?? null },
    data: dataSection(backend),
    rate: rateSection(backend),
    webhooks: webhookSection(backend),
    deliveries: deliverySection(backend),
    deadLetters: deadLetterSection(backend),
    devices: deviceSection(backend, log),
    messages: log.messages(),
    faults: faultSection(backend),
  };
}

/** Armed faults the page lists (the first ones; the rest are counted) and fired faults it shows (newest). */
export const FAULTS_SHOWN = 50;

/** The faults armed and the last calls they changed, newest first (the section follows `backend.faults`). */
function faultSection(backend: BackendCore) {
  const armed = backend.faults.list();
  return {
    deliveries: backend.faults.deliveries,
    armedCount: armed.length,
    armed: armed.slice(0, FAULTS_SHOWN),
    fired: backend.faults.fired().slice(-FAULTS_SHOWN).reverse(),
  };
}

/** Keys are shown by their last 4 characters: the page may be on a shared screen. */
function maskKey(key: string): string {
  return key.length >= 12 ? `…${key.slice(-4)}` : '…';
}

function dataSection(backend: BackendCore) {
  const { store } = backend;
  const owner = (userId: number) => store.users.get(userId)?.username ?? `user ${userId}`;
  return {
    users: [...store.users.values()].map((u) => ({
      id: u.id,
      username: u.username,
      email: u.email,
      admin: u.admin,
      status: u.status,
      key: maskKey(u.apikey),
    })),
    domains: [...store.domains.values()].map((d) => ({ id: d.id, owner: owner(d.userId), domain: d.domain })),
    pixels: [...store.pixels.values()].map((p) => ({ id: p.id, owner: owner(p.userId), type: p.type, name: p.name })),
    qrs: [...store.qrs.values()].map((q) => ({
      id: q.id,
      owner: owner(q.userId),
      name: q.name,
      type: q.type,
      // The public PNG route the API's own `link` points at.
      image: QR_IMAGE_ROUTE.replace(':file', `${q.token}.png`),
    })),
    plans: [...store.plans.values()].map((p) => ({ id: p.id, name: p.name, free: p.free, prices: p.prices })),
  };
}

function rateSection(backend: BackendCore) {
  const limiter = backend.rateLimiter;
  if (!limiter) return { limit: null, windowMs: null, keys: [] };
  const { limit, windowMs } = limiter.options;
  const keys = [...backend.store.users.values()].flatMap((u) => {
    const window = limiter.peek(u.apikey);
    return window ? [{ username: u.username, key: maskKey(u.apikey), ...window }] : [];
  });
  return { limit, windowMs, keys };
}

function webhookSection(backend: BackendCore) {
  const { gateway } = backend;
  const hide = <T extends { secret: string }>(e: T): T => ({ ...e, secret: redactSecret(e.secret) });
  return {
    tenants: gateway.routing.listTenants().map(hide),
    devices: gateway.routing.listDevices().map(hide),
    circuits: gateway.circuits(),
    faults: gateway.faults.armed,
    stats: gateway.stats(),
  };
}

/** One attempt as the timeline shows it: no request headers (they carry the secret), the answer cut short. */
function attemptView(a: AttemptRecord) {
  return {
    attempt: a.attempt,
    startedAt: a.startedAt,
    durationMs: Math.round(a.durationMs),
    status: a.response?.status ?? null,
    error: a.error,
    answer: a.response ? a.response.body.slice(0, 200) : null,
    outcome: a.outcome,
    nextAttemptAt: a.nextAttemptAt,
    probe: a.probe,
    faults: a.faults,
  };
}

function deliverySection(backend: BackendCore) {
  const { engine } = backend.gateway;
  const byId = new Map<
    string,
    { deliveryId: string; event: string; tenant: string; url: string; attempts: ReturnType<typeof attemptView>[] }
  >();
  const records = engine.attempts();
  // Newest deliveries first; walking backwards keeps the work bounded by what is shown.
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    let delivery = byId.get(r.deliveryId);
    if (!delivery) {
      if (byId.size >= TIMELINE_DELIVERIES) continue;
      delivery = { deliveryId: r.deliveryId, event: r.event, tenant: r.tenant, url: r.url, attempts: [] };
      byId.set(r.deliveryId, delivery);
    }
    delivery.attempts.unshift(attemptView(r));
  }
  const inFlight = engine.inFlight();
  const scheduled = engine.scheduled();
  return {
    /** The first attempt and its retries: the last one failing dead-letters the event. */
    maxAttempts: RETRY_DELAYS_MS.length + 1,
    items: [...byId.values()].map((d) => {
      const flight = inFlight.find((f) => f.deliveryId === d.deliveryId) ?? null;
      const next = scheduled.find((s) => s.deliveryId === d.deliveryId) ?? null;
      const coming = flight ? { attempt: flight.attempt, at: flight.startedAt } : next;
      return {
        ...d,
        inFlight: flight,
        next,
        // If every attempt left fails: the waits still ahead added up (jitter and open circuits only add to it).
        deadLetterAt: coming ? coming.at + sum(RETRY_DELAYS_MS.slice(coming.attempt - 1)) : null,
      };
    }),
  };
}

const sum = (values: readonly number[]) => values.reduce((total, v) => total + v, 0);

function deadLetterSection(backend: BackendCore) {
  const queue = backend.gateway.deadLetters;
  const items = queue.list();
  const tenants = [
    ...new Set([...items.map((i) => i.tenant), ...backend.gateway.routing.listTenants().map((t) => t.tenant)]),
  ];
  return {
    tenants: tenants.map((tenant) => ({
      tenant,
      evicted: queue.evicted(tenant),
      items: queue.list(tenant).map(({ body: _body, lastResponse, ...rest }) => ({
        ...rest,
        lastResponse: lastResponse.slice(0, 200),
      })),
    })),
  };
}

function deviceSection(backend: BackendCore, log: PublishedLog) {
  const { gateway } = backend;
  return {
    devices: gateway.devices.list().map((d) => {
      const session = gateway.simulate.pairing.session(d.id);
      const frame = log.frame(d.id);
      return {
        id: d.id,
        tenant: d.tenant,
        name: d.name,
        phone: d.phone,
        status: d.status,
        pairing: session
          ? { state: session.state, attempt: session.attempt, qrCode: session.qrCode, frame: frame ?? null }
          : null,
      };
    }),
  };
}
