import { RequestRejection } from '../http/responses.js';
import { IndexedTable } from './indexed-table.js';
import type { DomainRow, OverlayRow, PixelRow, PlanRow, QrRow, SplashRow, UserRow } from './store.js';

/**
 * The rows a user owns in `table`, newest first (production lists by date, newest first): read from the table's
 * owner index, so a list costs the caller's rows, not everyone's.
 */
export function ownedBy<T extends { id: number; userId: number }>(table: Map<number, T>, userId: number): T[] {
  const rows =
    table instanceof IndexedTable
      ? (table as IndexedTable<T, 'owner'>).findBy('owner', String(userId))
      : [...table.values()].filter((row) => row.userId === userId);
  return rows.sort((a, b) => b.id - a.id);
}

/** The caller's row in `table` with this id; another user's row reads as missing, answered with `notFound`. */
export function ownRow<T extends { userId: number }>(
  table: Map<number, T>,
  id: number,
  userId: number,
  notFound: string,
): T {
  const row = table.get(id);
  if (!row || row.userId !== userId) throw new RequestRejection(notFound);
  return row;
}

/** The account record (`GET /api/account`). */
export function toAccount(user: UserRow) {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    avatar: user.avatar,
    status: user.status,
    expires: user.expires,
    registered: user.registered,
  };
}

/** The user record of the admin endpoints: the account plus `planid` and the API key. */
export function toUser(user: UserRow) {
  return { ...toAccount(user), planid: user.planid, apikey: user.apikey };
}

/** A branded domain as listed. */
export function toDomain(row: DomainRow) {
  return { id: row.id, domain: row.domain, redirectroot: row.redirectroot, redirect404: row.redirect404 };
}

/** A pixel as listed. */
export function toPixel(row: PixelRow) {
  return { id: row.id, type: row.type, name: row.name, tag: row.tag, date: row.date };
}

/** A QR code as listed (and as `details`); `link` is the mock's own PNG URL. */
export function toQr(row: QrRow, link: string) {
  return { id: row.id, link, scans: row.scans, name: row.name, date: row.date };
}

/** A splash page as listed. */
export function toSplash(row: SplashRow) {
  return { id: row.id, name: row.name, date: row.date };
}

/** An overlay as listed. */
export function toOverlay(row: OverlayRow) {
  return { id: row.id, type: row.type, name: row.name, date: row.date };
}

/** A plan record (a copy, so answers never alias the store). */
export function toPlan(row: PlanRow) {
  return structuredClone({ id: row.id, name: row.name, free: row.free, prices: row.prices, limits: row.limits });
}
