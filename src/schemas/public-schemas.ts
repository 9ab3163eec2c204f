/**
 * `linkgate/schemas`: the zod (`zod/mini`) schemas the SDK checks the service's answers and your request bodies with,
 * for your own validation (forms, queues, tests), and the service's rules as constants. Each schema has a type of the
 * same name (`Domain` is both the schema and `z.infer` of it). Each is built on its first use (importing builds none):
 * it parses, nests and converts to JSON Schema as any zod schema, while reflection on it (`console.log(Domain)`,
 * `{ ...Domain }`) sees an empty object; spread an object schema's fields as `...Domain.shape`.
 *
 * @example
 * import { DomainCreate } from 'linkgate/schemas';
 *
 * const checked = DomainCreate.safeParse({ domain: 'https://links.example.com' });
 * if (!checked.success) console.log(checked.error.issues);
 *
 * @packageDocumentation
 * @module linkgate/schemas
 */
export { ACCOUNT_STATUSES, Account, AccountUpdate } from './account.js';
export { Domain, DomainCreate, DomainUpdate } from './domain.js';
export { MAX_NAME_CHARS, MAX_TAG_CHARS, MAX_URL_CHARS } from './limits.js';
export {
  DEVICE_STATUSES,
  type DeviceStatus,
  MESSAGING_KEY_PATTERN,
  SendMessage,
  SendMessageResult,
} from './messaging.js';
export { OVERLAY_TYPES, Overlay } from './overlay.js';
export { PageQuery } from './page.js';
export { PIXEL_TYPES, Pixel, PixelCreate, PixelType, PixelUpdate } from './pixel.js';
export { Plan, SUBSCRIPTION_TYPES } from './plan.js';
export { EMAIL_PATTERN, MIN_PASSWORD_LENGTH, USERNAME_PATTERN } from './primitives.js';
export { QR_TYPES, Qr, QrCreate, QrData, QrStats, QrType, QrUpdate } from './qr.js';
export { Splash } from './splash.js';
export { USER_FILTERS, User, UserCreate, UserListQuery } from './user.js';
