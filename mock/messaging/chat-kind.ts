/** The kind of chat an event belongs to; only `direct` (one-to-one) chats are delivered (spec, Delivery rules 3). */
export type ChatKind = 'direct' | 'group' | 'story' | 'channel';

/** Chat kinds a simulator accepts in `chat_type`. */
export const CHAT_KINDS: readonly ChatKind[] = ['direct', 'group', 'story', 'channel'];

/** Reads the chat kind from a jid: `…@g.us` group, `status@broadcast` story, `…@newsletter` channel. */
export function chatKindOf(jid: string): ChatKind {
  if (jid.endsWith('@g.us')) return 'group';
  if (jid === 'status@broadcast' || jid.endsWith('@broadcast')) return 'story';
  if (jid.endsWith('@newsletter')) return 'channel';
  return 'direct';
}
