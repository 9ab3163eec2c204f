// The shapes of webhook secrets, apart from the zod schemas of src/schemas/events.ts (which re-exports them), so the
// webhook receiver can check its secrets without loading zod.

/** Tenant-level webhook secret shape: `whsec_live_` + 32 hex characters. */
export const TENANT_SECRET_PATTERN = /^whsec_live_[0-9a-f]{32}$/i;
/** Device-level webhook secret shape: `whsec_dev_` + 32 hex characters. */
export const DEVICE_SECRET_PATTERN = /^whsec_dev_[0-9a-f]{32}$/i;
