// Large state files as a long-running server writes them: a real seed state with rows added in the server's own
// format (indented JSON), for the state-file attacks and the end-to-end tests that start `linkgate mock --state`.
import { writeFileSync } from 'node:fs';

/** The parts of a state document the growing touches. */
export interface StateDoc {
  store: {
    users: Record<string, unknown>[];
    pixels: Record<string, unknown>[];
    nextIds: Record<string, number>;
  };
}

/** One pixel row of user `userId`, numbered `id`, in the form a state file holds it. */
const pixel = (id: number, userId: number) => ({
  id,
  userId,
  type: 'gtmpixel',
  name: `Pixel ${id}`,
  tag: `GTM-${id.toString(36).toUpperCase().padStart(6, '0')}`,
  date: '2026-11-28 10:00:00',
});

/**
 * Writes to `file` the seed state plus `users` extra users and `pixels` extra pixels (spread over the extra users,
 * or all alice's when there are none), as the server formats it; returns the file's size in bytes.
 */
export function writeGrownState(file: string, seed: StateDoc, grow: { users?: number; pixels: number }): number {
  const doc = structuredClone(seed);
  const { store } = doc;
  const firstUser = store.nextIds.users as number;
  const template = store.users.find((u) => u.username === 'alice') as Record<string, unknown>;
  for (let i = 0; i < (grow.users ?? 0); i++) {
    store.users.push({
      ...template,
      id: firstUser + i,
      username: `user_${i}`,
      email: `user${i}@example.com`,
      apikey: `k${i.toString(16).padStart(31, '0')}`,
      admin: false,
    });
  }
  const alice = template.id as number;
  const firstPixel = store.nextIds.pixels as number;
  for (let i = 0; i < grow.pixels; i++) {
    store.pixels.push(pixel(firstPixel + i, grow.users ? firstUser + (i % grow.users) : alice));
  }
  store.nextIds.users = firstUser + (grow.users ?? 0);
  store.nextIds.pixels = firstPixel + grow.pixels;
  const text = `${JSON.stringify(doc, null, 1)}\n`;
  writeFileSync(file, text);
  return Buffer.byteLength(text);
}
