import { createMockBackend, ManualClock } from 'linkgate/mock';
import { afterEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../support/receiver.js';

describe('inbound media rules', () => {
  let rx: Receiver;
  afterEach(() => rx?.close());

  async function setup() {
    rx = await startReceiver();
    const clock = new ManualClock();
    const backend = createMockBackend({ clock });
    backend.gateway.routing.setTenant('default', { url: rx.url });
    const device = backend.gateway.devices.add();
    return { clock, backend, device };
  }

  it('stores an accepted photo under tmp/, serves it at the mock URL, and answers 404 after 7 days', async () => {
    const { clock, backend, device } = await setup();
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const result = backend.gateway.simulate.message({
      device_id: device.id,
      sender: '15551234567',
      media: { mime_type: 'image/jpeg', file_name: 'cat.jpg', data: bytes },
    });
    await backend.gateway.drain();
    const data = rx.received[0]!.json.data as { has_media: boolean; media: Record<string, unknown> };
    expect(data.has_media).toBe(true);
    expect(data.media).toMatchObject({ type: 'image', file_name: 'cat.jpg', mime_type: 'image/jpeg', file_size: 7 });
    expect(data.media.url).toBe(result.media_url);
    expect(String(data.media.url)).toMatch(/^http:\/\/localhost\/__mock\/media\/tmp\/[^/]+\/cat\.jpg$/);
    const served = await backend.fetch(String(data.media.url));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);

    await clock.advance(7 * 24 * 3_600_000 - 1);
    expect((await backend.fetch(String(data.media.url))).status).toBe(200);
    await clock.advance(1);
    expect((await backend.fetch(String(data.media.url))).status).toBe(404);
  });

  it.each([
    ['a PDF of exactly 1 MB', 'application/pdf', 1024 * 1024, undefined, 'document'],
    ['a PNG', 'image/png', 10, undefined, 'image'],
    ['a WebP', 'image/webp', 10, undefined, 'image'],
    ['a photo over 1 MB', 'image/jpeg', 1024 * 1024 + 1, 'media_too_large', undefined],
    ['a video', 'video/mp4', 10, 'media_unsupported_type', undefined],
    ['a voice note', 'audio/ogg', 10, 'media_unsupported_type', undefined],
  ])('handles %s', async (_name, mime, size, error, type) => {
    const { backend, device } = await setup();
    backend.gateway.simulate.message({
      device_id: device.id,
      sender: '15551234567',
      media: { mime_type: mime, file_size: size },
    });
    await backend.gateway.drain();
    const data = rx.received[0]!.json.data as Record<string, unknown>;
    if (error) {
      expect(data).toMatchObject({ has_media: false, media_error: error });
      expect(data.media).toBeUndefined();
    } else {
      expect(data).toMatchObject({ has_media: true, media: { type, mime_type: mime, file_size: size } });
      expect(data.media_error).toBeUndefined();
    }
  });
});
