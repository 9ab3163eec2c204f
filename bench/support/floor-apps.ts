// The floors an app's bundle is judged against: what any client on ky that checks answers with zod/mini must ship
// whatever its own code does, and the host apps already on that stack that linkgate's added bytes are measured on.
// Bundled the same way as the apps, in the same run (`npm run size`, bundle-size bench).
import { join } from 'node:path';
import { root } from './app-bundle.js';

/** A floor: an app that does the least a client of that kind must. */
export interface FloorApp {
  /** What it holds, for the report. */
  name: string;
  /** Its entry source. */
  source: string;
}

/** ky alone, sending one request. */
export const kyAlone: FloorApp = {
  name: 'ky alone',
  source: `import ky from 'ky'; export const main = () => ky.get('https://links.example.com/api/account').json();`,
};

/** ky plus the least any zod/mini check costs (objects, strings, numbers, safeParse): one small response schema. */
export const kyAndOneSchema: FloorApp = {
  name: 'ky + zod/mini + one small schema',
  source: `
import ky from 'ky';
import * as z from 'zod/mini';
const schema = z.looseObject({ error: z.number(), data: z.object({ id: z.number(), name: z.string() }) });
export const main = async () => schema.safeParse(await ky.get('https://x.example').json());
`,
};

/** ky plus every management schema the client parses or checks with: what calling every resource must ship. */
export const kyAndEverySchema: FloorApp = {
  name: 'ky + every management schema',
  source: `
import ky from 'ky';
import * as s from ${JSON.stringify(join(root, 'src/schemas/index.ts'))};
const all = [s.dataEnvelope(s.Account), s.AccountUpdate, s.pagedEnvelope(s.Domain, ['domains']), s.DomainCreate,
  s.DomainUpdate, s.pagedEnvelope(s.Splash, ['splash']), s.pagedEnvelope(s.Overlay, ['cta', 'overlay']),
  s.pagedEnvelope(s.Pixel, ['pixels']), s.PixelCreate, s.PixelUpdate, s.pagedEnvelope(s.Qr, ['qrs']), s.QrCreate,
  s.QrUpdate, s.QrDetailEnvelope, s.QrCreatedEnvelope, s.dataEnvelope(s.Plan), s.PlanSubscription, s.dataEnvelope(s.User),
  s.UserCreate, s.UserCreatedEnvelope, s.UserListQuery, s.PageQuery, s.MessageEnvelope, s.CreatedEnvelope];
export const main = async () => all.map((schema) => schema.safeParse(ky.get('https://x.example').json()));
`,
};

/** The host app of the "added to an app on ky + zod/mini" figures: one ky call whose answer a zod/mini schema checks. */
export const hostOnKyAndZod: FloorApp = {
  name: 'an app on ky + zod/mini: one ky call checked by a schema',
  source: kyAndOneSchema.source,
};

/** The host app of the receiver's "added" figure: an app that checks its own input with one zod/mini schema. */
export const hostOnZod: FloorApp = {
  name: 'an app on zod/mini: one schema parsed',
  source: `
import * as z from 'zod/mini';
const schema = z.looseObject({ id: z.string(), count: z.number().check(z.int()), tags: z.array(z.string()) });
export const main = (value) => schema.safeParse(value);
`,
};
