// The catalog's event names, apart from the zod schemas of src/schemas/events.ts (which re-exports them), so the
// webhook receiver can list them without loading zod.

/** The events in the documented catalog. */
export const EVENT_NAMES = ['message.received', 'message.ack', 'message.sent', 'device.status', 'device.qr'] as const;
