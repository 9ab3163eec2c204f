import type { DeviceStatus } from '../../src/schemas/messaging.js';
import type { PublishResult } from '../delivery/delivery-engine.js';
import type { Device } from '../messaging/device-registry.js';
import { checkStatus } from '../messaging/device-registry.js';
import { intField, objectInput, stringField } from './simulation-input.js';
import { publishEvent, type SimulatorContext } from './simulator-context.js';

/** Input of {@link DeviceStatusSimulator.status}. */
export interface SimulatedStatusChange {
  device_id: string;
  status: DeviceStatus;
  /** Why the status changed, e.g. `connection_lost`. @default null */
  reason?: string | null;
  /** 0-100 (observed behaviour). */
  heat_score?: number;
}

/** Simulates device connection changes: updates the device and emits `device.status` (observed payload shape). */
export class DeviceStatusSimulator {
  readonly #ctx: SimulatorContext;

  constructor(ctx: SimulatorContext) {
    this.#ctx = ctx;
  }

  /** Sets the device's status and emits `device.status`. */
  status(input: SimulatedStatusChange): PublishResult {
    const body = objectInput(input);
    const device = this.#ctx.devices.require(body.device_id);
    const status = checkStatus(body.status);
    const reason = body.reason === null ? null : (stringField(body, 'reason') ?? null);
    const heat = intField(body, 'heat_score', 0, 100);
    return this.apply(device, status, reason, heat);
  }

  /** Changes `device` to `status` and emits the event (used by the pairing flow too). */
  apply(device: Device, status: DeviceStatus, reason: string | null, heatScore?: number): PublishResult {
    device.status = status;
    const data: Record<string, unknown> = { device_name: device.name, phone: device.phone, status, reason };
    if (heatScore !== undefined) data.heat_score = heatScore;
    return publishEvent(this.#ctx, device, 'device.status', data);
  }
}
