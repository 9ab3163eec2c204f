import * as z from 'zod/mini';
import { createQrCode, type ManagementOperationId, updateQrCode } from '../../src/schemas/operations.js';
import { QR_DATA_BY_TYPE, type QrData, type QrType } from '../../src/schemas/qr.js';
import type { Handlers } from '../http/operation-route.js';
import { RequestRejection, success } from '../http/responses.js';
import { ownedDeleteHandler, ownedListHandler } from './owned-routes.js';
import { encodeQrContent } from './qr-content.js';
import { qrImageLink } from './qr-image-route.js';
import { ownRow, toQr } from './records.js';
import { type IssueText, parseWith, readId, readJsonBody } from './request-validation.js';
import type { ManagementContext } from './route-context.js';
import { emptyStats, type QrRow } from './store.js';

const NOT_FOUND = 'QR does not exist.';
const BAD_FORMAT = 'Invalid QR format or missing data.';
const BAD_LOGO = 'Logo must be either a PNG or a JPEG (Max 500kb).';

/** Production's messages: one for type/data problems, one for the logo; colours get the generic message. */
function qrMessage(issues: IssueText[]): string | undefined {
  if (issues.some((i) => i.field === 'body' || i.field === 'type' || i.field.split('.')[0] === 'data'))
    return BAD_FORMAT;
  if (issues.some((i) => i.field === 'logo')) return BAD_LOGO;
  return undefined;
}

/** Bytes a QR code holds at error-correction level M (version 40, byte mode). */
const QR_CAPACITY_BYTES = 2331;

/** Rejects content no QR code can hold, so the image link never breaks. */
function checkCapacity(type: QrType, data: QrData): void {
  const bytes = new TextEncoder().encode(encodeQrContent(type, data)).length;
  if (bytes > QR_CAPACITY_BYTES) {
    throw new RequestRejection(BAD_FORMAT, {
      issues: [`data: must encode to at most ${QR_CAPACITY_BYTES} bytes (got ${bytes})`],
    });
  }
}

/** An optional `name` (not in the documented body table, accepted so codes can be told apart), trimmed, max 100. */
function readName(raw: Record<string, unknown>): string | undefined {
  return typeof raw.name === 'string' && raw.name.trim() ? raw.name.trim().slice(0, 100) : undefined;
}

/** Text and vCard codes have no short link behind them, so their statistics are always empty (observed). */
function statsOf(row: QrRow) {
  return row.type === 'text' || row.type === 'vcard' ? emptyStats() : structuredClone(row.stats);
}

/** QR codes: list, read with statistics, add, update, delete. */
export const qrHandlers = {
  'qr.list': ownedListHandler({
    collection: 'qrs',
    table: 'qrs',
    record: (row, core, req) => toQr(row, qrImageLink(core, req, row)),
  }),
  'qr.get'({ req, params, context }) {
    const row = ownRow(context.core.store.qrs, readId(params), context.user.id, NOT_FOUND);
    return success({ details: toQr(row, qrImageLink(context.core, req, row)), data: statsOf(row) });
  },
  'qr.create'({ req, context }) {
    const { core, user } = context;
    const raw = readJsonBody(req);
    const body = parseWith(createQrCode.body, raw, { message: qrMessage });
    checkCapacity(body.type, body.data);
    const name = readName(raw);
    const row = core.store.addQr(user.id, {
      type: body.type,
      data: body.data,
      ...(name ? { name } : {}),
      background: body.background ?? null,
      foreground: body.foreground ?? null,
      logo: body.logo ?? null,
    });
    return success({ id: row.id, link: qrImageLink(core, req, row) });
  },
  'qr.update'({ req, params, context }) {
    const id = readId(params);
    const raw = readJsonBody(req);
    const row = ownRow(context.core.store.qrs, id, context.user.id, NOT_FOUND);
    const body = parseWith(updateQrCode.body, raw, { message: qrMessage });
    // The spec leaves `type` in an update open; the mock honours it, so `data` is checked against the new type.
    const type: QrType = body.type ?? row.type;
    const { data } = parseWith(
      z.object({ data: QR_DATA_BY_TYPE[type] }),
      { data: body.data },
      { message: () => BAD_FORMAT },
    );
    checkCapacity(type, data);
    const name = readName(raw);
    row.type = type;
    row.data = data;
    if (body.background !== undefined) row.background = body.background;
    if (body.foreground !== undefined) row.foreground = body.foreground;
    if (body.logo !== undefined) row.logo = body.logo;
    if (name) row.name = name;
    return success({ message: 'QR has been updated successfully.' });
  },
  'qr.delete': ownedDeleteHandler('qrs', {
    notFound: NOT_FOUND,
    deleted: 'QR Code has been deleted successfully.',
  }),
} satisfies Partial<Handlers<ManagementOperationId, ManagementContext>>;
