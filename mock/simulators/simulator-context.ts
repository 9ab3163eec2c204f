import type { EventName } from '../../src/schemas/events.js';
import type { Clock } from '../../src/shared/clock.js';
import type { GatewayEngine, PublishResult } from '../delivery/delivery-engine.js';
import type { ChatKind } from '../messaging/chat-kind.js';
import type { Device, DeviceRegistry } from '../messaging/device-registry.js';
import type { MediaStore } from '../messaging/media-store.js';
import { randomHex } from '../shared/random-text.js';

/** What the event simulators share: the clock, the engine they publish to, devices and media storage. */
export interface SimulatorContext {
  clock: Clock;
  engine: GatewayEngine;
  devices: DeviceRegistry;
  media: MediaStore;
  random: () => number;
  /** The origin media URLs are built on (the server's URL, or the backend's base URL). */
  origin(): string;
}

/** Unix seconds on the context's clock. */
export function unixSeconds(ctx: SimulatorContext): number {
  return Math.floor(ctx.clock.now() / 1000);
}

/** Wraps `data` in the documented envelope and hands it to the engine. */
export function publishEvent(
  ctx: SimulatorContext,
  device: Device,
  event: EventName,
  data: Record<string, unknown>,
): PublishResult {
  return ctx.engine.publish({
    tenant: device.tenant,
    deviceId: device.id,
    event,
    payload: { event, device_id: device.id, timestamp: unixSeconds(ctx), data },
  });
}

/** Records `event` of a group, story or channel chat as dropped (only one-to-one chats are delivered); sends nothing. */
export function dropChatEvent(
  ctx: SimulatorContext,
  device: Device,
  event: EventName,
  kind: Exclude<ChatKind, 'direct'>,
): PublishResult {
  return { queued: false, dropped: ctx.engine.drop({ tenant: device.tenant, deviceId: device.id, event }, kind) };
}

/** A message id in the style of the messaging network (upper-case hex). */
export function messageId(ctx: SimulatorContext): string {
  return `3EB0${randomHex(16, ctx.random).toUpperCase()}`;
}
