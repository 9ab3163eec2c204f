/** The spec's header prefix for webhook deliveries; deployments that brand it differently pass `headerPrefix`. */
export const DEFAULT_HEADER_PREFIX = 'X-Service-';

/** The User-Agent of the gateway's webhook engine (spec: a fixed string naming the engine, version 2.0). */
export const WEBHOOK_USER_AGENT = 'linkgate-webhook-engine/2.0';

/** What a single delivery attempt carries besides its JSON body. */
export interface DeliveryHeaderInput {
  /** The webhook secret presented in `X-Service-Secret`. */
  secret: string;
  /** Unique per event, the same across its retries and replays (a ULID from the gateway). */
  deliveryId: string;
  /** The event name, e.g. `message.received`. */
  event: string;
  /** The device the event belongs to. */
  deviceId: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  /** Header prefix; default `X-Service-`. */
  headerPrefix?: string;
}

/** The headers of one delivery attempt, exactly as the gateway sends them (spec, Request headers on every delivery). */
export function deliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  const p = input.headerPrefix ?? DEFAULT_HEADER_PREFIX;
  return {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    [`${p}Secret`]: input.secret,
    [`${p}Delivery-ID`]: input.deliveryId,
    [`${p}Event`]: input.event,
    [`${p}Device-ID`]: input.deviceId,
    [`${p}Timestamp`]: String(Math.floor(input.timestamp)),
  };
}
