import { CHAT_KINDS, type ChatKind, chatKindOf } from '../messaging/chat-kind.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';

/** Reads a JSON object body or throws naming `body`. */
export function objectInput(input: unknown): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new GatewayInputError('body', 'must be a JSON object');
  }
  return input as Record<string, unknown>;
}

/** A required or optional string field. */
export function stringField(input: Record<string, unknown>, field: string, required: true): string;
export function stringField(input: Record<string, unknown>, field: string, required?: false): string | undefined;
export function stringField(input: Record<string, unknown>, field: string, required = false): string | undefined {
  const v = input[field];
  if (v === undefined || v === null) {
    if (required) throw new GatewayInputError(field, 'is required and must be a string');
    return undefined;
  }
  if (typeof v !== 'string') throw new GatewayInputError(field, 'must be a string');
  if (required && v.length === 0) throw new GatewayInputError(field, 'must not be empty');
  return v;
}

/** A phone number field: digits only. */
export function phoneField(input: Record<string, unknown>, field: string, required: true): string;
export function phoneField(input: Record<string, unknown>, field: string, required?: false): string | undefined;
export function phoneField(input: Record<string, unknown>, field: string, required = false): string | undefined {
  const v = required ? stringField(input, field, true) : stringField(input, field);
  if (v !== undefined && !/^\d{6,20}$/.test(v))
    throw new GatewayInputError(field, 'must be 6-20 digits, no + or spaces');
  return v;
}

/** An optional integer field within bounds. */
export function intField(input: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const v = input[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new GatewayInputError(field, `must be an integer from ${min} to ${max}`);
  }
  return v;
}

/** An optional field restricted to listed values. */
export function enumField<T extends string>(
  input: Record<string, unknown>,
  field: string,
  values: readonly T[],
): T | undefined {
  const v = input[field];
  if (v === undefined || v === null) return undefined;
  if (!values.includes(v as T)) throw new GatewayInputError(field, `must be one of ${values.join(', ')}`);
  return v as T;
}

/** The event's chat: `chat_jid` (default `defaultJid`) and `chat_type` (default: read from the jid). */
export function chatField(input: Record<string, unknown>, defaultJid: string): { jid: string; kind: ChatKind } {
  const jid = stringField(input, 'chat_jid') ?? defaultJid;
  return { jid, kind: enumField(input, 'chat_type', CHAT_KINDS) ?? chatKindOf(jid) };
}
