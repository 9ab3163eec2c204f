import { DEVICE_STATUSES, type DeviceStatus } from '../../src/schemas/messaging.js';
import type { Clock } from '../../src/shared/clock.js';
import { checkedUnder, GatewayInputError } from '../shared/gateway-input-error.js';
import { checkTenant } from './messaging-keyring.js';

/** A connected device slot of a tenant. The spec does not show a device record; this is the mock's. */
export interface Device {
  /** Device id as it appears in payloads (`device_id`), e.g. `dev_1`. */
  id: string;
  tenant: string;
  /** Display name (`device_name` in `device.status`). */
  name: string;
  /** The device's own phone number, digits. */
  phone: string;
  status: DeviceStatus;
  createdAt: number;
}

/** What a caller passes to add a device. */
export interface DeviceInput {
  /** Owner tenant. @default 'default' */
  tenant?: string;
  /** Device id. @default generated (`dev_<n>`) */
  id?: string;
  /** @default 'Device <n>' */
  name?: string;
  /** Digits. @default generated */
  phone?: string;
  /** @default 'ONLINE' */
  status?: string;
}

/** Devices per tenant with the documented four statuses. */
export class DeviceRegistry {
  readonly #devices = new Map<string, Device>();
  readonly #clock: Clock;
  #seq = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Adds a device; throws a {@link GatewayInputError} naming the field on bad input or a taken id. */
  add(input: DeviceInput = {}): Device {
    if (typeof input !== 'object' || input === null) throw new GatewayInputError('body', 'must be a JSON object');
    const tenant = checkTenant(input.tenant);
    const n = this.#seq + 1;
    const id = input.id ?? `dev_${n}`;
    if (typeof id !== 'string' || !/^[\w.:-]{1,64}$/.test(id)) {
      throw new GatewayInputError('id', 'must be 1-64 letters, digits, "_", "-", "." or ":"');
    }
    if (id === 'auto') throw new GatewayInputError('id', 'must not be "auto" (reserved for "first online device")');
    if (this.#devices.has(id)) throw new GatewayInputError('id', 'is already taken by another device', 409);
    const name = input.name ?? `Device ${n}`;
    if (typeof name !== 'string' || name.length === 0)
      throw new GatewayInputError('name', 'must be a non-empty string');
    const phone = input.phone ?? String(15550000000 + n);
    if (typeof phone !== 'string' || !/^\d{6,20}$/.test(phone))
      throw new GatewayInputError('phone', 'must be 6-20 digits');
    const status = checkStatus(input.status ?? 'ONLINE');
    this.#seq = n;
    const device: Device = { id, tenant, name, phone, status, createdAt: this.#clock.now() };
    this.#devices.set(id, device);
    return device;
  }

  /** The device `id`, if any. */
  get(id: string): Device | undefined {
    return this.#devices.get(id);
  }

  /** The device `id`, or a 404 {@link GatewayInputError}. */
  require(id: unknown, field = 'device_id'): Device {
    if (typeof id !== 'string' || id.length === 0) throw new GatewayInputError(field, 'is required (a device id)');
    const device = this.#devices.get(id);
    if (!device) throw new GatewayInputError(field, 'does not name a device of the mock', 404);
    return device;
  }

  /** Devices of `tenant` (all when omitted), in creation order. */
  list(tenant?: string): Device[] {
    return [...this.#devices.values()].filter((d) => tenant === undefined || d.tenant === tenant);
  }

  /** The first ONLINE device of `tenant` (what `device_id: "auto"` picks). */
  firstOnline(tenant: string): Device | undefined {
    for (const d of this.#devices.values()) if (d.tenant === tenant && d.status === 'ONLINE') return d;
    return undefined;
  }

  /** Removes a device; returns whether it existed. */
  remove(id: string): boolean {
    return this.#devices.delete(id);
  }

  /** Forgets every device. */
  clear(): void {
    this.#devices.clear();
    this.#seq = 0;
  }

  /** Every device and the counter of generated ids, as plain data (what a state snapshot holds). @internal */
  exportState(): DeviceRegistryState {
    return { seq: this.#seq, devices: this.list().map((d) => ({ ...d })) };
  }

  /**
   * A new registry holding the devices of `state`, each checked by {@link add}'s rules; throws a
   * {@link GatewayInputError} naming `devices[i].<field>` on the first one refused. Swap it in with {@link replaceWith}.
   * @internal
   */
  static fromState(clock: Clock, state: DeviceRegistryState): DeviceRegistry {
    const registry = new DeviceRegistry(clock);
    state.devices.forEach((device, i) => {
      // Every field is given, so add() generates nothing: the row is kept as it was exported.
      checkedUnder(`devices[${i}]`, () => {
        registry.add(device).createdAt = device.createdAt;
      });
    });
    registry.#seq = state.seq;
    return registry;
  }

  /** Takes every device and the id counter of `other` (built by `fromState`); cannot fail. @internal */
  replaceWith(other: DeviceRegistry): void {
    this.#devices.clear();
    for (const [id, device] of other.#devices) this.#devices.set(id, device);
    this.#seq = other.#seq;
  }
}

/** A {@link DeviceRegistry} as plain data: its devices in creation order and the counter of generated ids. */
export interface DeviceRegistryState {
  seq: number;
  devices: Device[];
}

/** Checks a device status against the documented four values. */
export function checkStatus(status: unknown, field = 'status'): DeviceStatus {
  if (!(DEVICE_STATUSES as readonly unknown[]).includes(status)) {
    throw new GatewayInputError(field, `must be one of ${DEVICE_STATUSES.join(', ')}`);
  }
  return status as DeviceStatus;
}
