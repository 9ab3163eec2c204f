// SHA-256 from @noble/hashes: synchronous (Web Crypto's digest is async, and a promise per request costs more than the
// whole lookup) and runtime-neutral (the mock core may not import node:crypto).
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';

const encoder = new TextEncoder();

/** SHA-256 of a UTF-8 string, as 32 bytes. */
export function sha256(text: string): Uint8Array {
  return nobleSha256(encoder.encode(text));
}

/** The digest a key is stored under: its SHA-256 as a binary string (a cheap Map key). */
export function keyDigest(key: string): string {
  const bytes = sha256(key);
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}
