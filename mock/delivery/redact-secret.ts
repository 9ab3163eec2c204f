/** A webhook secret shown by its prefix only (`whsec_live_[redacted]`), for listings and records that may be shared. */
export function redactSecret(secret: string): string {
  const prefix = /^whsec_(?:live|dev)_/.exec(secret)?.[0] ?? '';
  return `${prefix}[redacted]`;
}
