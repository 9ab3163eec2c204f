import type { Timer } from '../../src/shared/clock.js';
import type { Device } from '../messaging/device-registry.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
import { renderQrDataUri } from '../shared/qr-png.js';
import { randomChars } from '../shared/random-text.js';
import type { DeviceStatusSimulator } from './device-status-simulator.js';
import { publishEvent, type SimulatorContext } from './simulator-context.js';

/** QR frames per pairing session (spec: attempt 1 to 5). */
export const QR_MAX_ATTEMPTS = 5;
/** Lifetime of one QR frame in seconds (spec: typically 20). */
export const QR_EXPIRES_IN_SECONDS = 20;
/** How frames are drawn: low error correction keeps the long pairing string's code small; 4 px modules for phones. */
export const PAIRING_QR_OPTIONS = { errorCorrectionLevel: 'L', scale: 4 } as const;

/** A pairing session's state, for inspection. */
export interface PairingSession {
  deviceId: string;
  /** The last frame sent (1-5). */
  attempt: number;
  /** The last frame's raw pairing string. */
  qrCode: string;
  state: 'waiting' | 'paired' | 'expired' | 'cancelled';
}

/**
 * Simulates pairing a device: a `device.qr` frame (attempt 1..5, a scannable PNG data URI) every 20 s on the clock;
 * a scan ({@link PairingSimulator.scan}) pairs it (`device.status` ONLINE); with no scan after frame 5 expires,
 * pairing ends with `device.status` OFFLINE, reason `qr_timeout` (observed behaviour). Only a device that is not
 * ONLINE can be paired.
 */
export class PairingSimulator {
  readonly #ctx: SimulatorContext;
  readonly #status: DeviceStatusSimulator;
  readonly #sessions = new Map<string, PairingSession & { timer: Timer | null }>();

  constructor(ctx: SimulatorContext, status: DeviceStatusSimulator) {
    this.#ctx = ctx;
    this.#status = status;
  }

  /**
   * Starts pairing `device_id` (restarting a running session) and sends frame 1 now. An ONLINE device is refused
   * (409): it is paired already, and an unscanned pairing would end by taking it OFFLINE (see Decisions).
   */
  start(input: { device_id: string }): PairingSession {
    const device = this.#ctx.devices.require((input as { device_id?: unknown } | null)?.device_id);
    if (device.status === 'ONLINE') {
      throw new GatewayInputError(
        'device_id',
        'names a device that is ONLINE (paired already); pairing is for a device that is not connected: add it with status "OFFLINE", or set it OFFLINE or LOGGED_OUT first (simulate.status, POST /__mock/simulate/status)',
        409,
      );
    }
    this.#sessions.get(device.id)?.timer?.cancel();
    const session = { deviceId: device.id, attempt: 0, qrCode: '', state: 'waiting' as const, timer: null };
    this.#sessions.set(device.id, session);
    this.#frame(device, session);
    return view(session);
  }

  /** Simulates the phone scanning the current frame: the device goes ONLINE and `device.status` is sent. */
  scan(input: { device_id: string }): PairingSession {
    const device = this.#ctx.devices.require((input as { device_id?: unknown } | null)?.device_id);
    const session = this.#sessions.get(device.id);
    if (session?.state !== 'waiting') {
      throw new GatewayInputError('device_id', 'has no pairing in progress; start one with action "start"', 409);
    }
    session.timer?.cancel();
    session.state = 'paired';
    this.#status.apply(device, 'ONLINE', 'paired');
    return view(session);
  }

  /** Stops a pairing without changing the device. */
  cancel(input: { device_id: string }): PairingSession {
    const device = this.#ctx.devices.require((input as { device_id?: unknown } | null)?.device_id);
    const session = this.#sessions.get(device.id);
    if (!session) throw new GatewayInputError('device_id', 'has no pairing session', 409);
    session.timer?.cancel();
    if (session.state === 'waiting') session.state = 'cancelled';
    return view(session);
  }

  /** The session of a device, if any. */
  session(deviceId: string): PairingSession | undefined {
    const s = this.#sessions.get(deviceId);
    return s && view(s);
  }

  /** Stops every session. */
  clear(): void {
    for (const s of this.#sessions.values()) s.timer?.cancel();
    this.#sessions.clear();
  }

  #frame(device: Device, session: PairingSession & { timer: Timer | null }): void {
    session.attempt++;
    session.qrCode = this.#pairingString();
    const attempt = session.attempt;
    const qr = session.qrCode;
    // The PNG is rendered asynchronously; drain() waits for it through track().
    this.#ctx.engine.track(
      renderQrDataUri(qr, PAIRING_QR_OPTIONS).then((image) => {
        if (session.state !== 'waiting' || session.attempt !== attempt) return;
        publishEvent(this.#ctx, device, 'device.qr', {
          qr_code: qr,
          qr_image_url: image,
          attempt,
          expires_in: QR_EXPIRES_IN_SECONDS,
        });
      }),
    );
    session.timer = this.#ctx.clock.setTimeout(() => {
      session.timer = null;
      if (session.state !== 'waiting') return;
      if (session.attempt < QR_MAX_ATTEMPTS) this.#frame(device, session);
      else {
        session.state = 'expired';
        this.#status.apply(device, 'OFFLINE', 'qr_timeout');
      }
    }, QR_EXPIRES_IN_SECONDS * 1000);
  }

  /** A raw pairing string shaped like the network's (`2@<ref>,<key>,<key>,<adv>`). */
  #pairingString(): string {
    const base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const part = (n: number) => randomChars(n, base64, this.#ctx.random);
    return `2@${part(60)},${part(43)}=,${part(43)}=,${part(43)}=`;
  }
}

function view(s: PairingSession): PairingSession {
  return { deviceId: s.deviceId, attempt: s.attempt, qrCode: s.qrCode, state: s.state };
}
