import { decodeQrImage } from 'linkgate/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { PAIRING_QR_OPTIONS } from '../../../mock/simulators/pairing-simulator.js';
import { manualGateway } from '../support/gateway.js';
import { decodePalettePng, drawnModules, expectedModules } from '../support/png.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

describe('pairing flow', () => {
  let rx: Receiver;
  afterEach(() => rx?.close());

  async function setup() {
    rx = await startReceiver();
    const { gateway, clock } = manualGateway();
    gateway.routing.setTenant('default', { url: rx.url, events: ['device.qr', 'device.status'] });
    const device = gateway.devices.add({ status: 'OFFLINE' });
    return { gateway, clock, device };
  }

  it('sends frames 1 to 5 every 20 s, then device.status OFFLINE with a reason when nobody scans', async () => {
    const { gateway, clock, device } = await setup();
    const t0 = Math.floor(clock.now() / 1000);
    gateway.simulate.pairing.start({ device_id: device.id });
    await gateway.drain();
    for (let i = 0; i < 5; i++) {
      await clock.advance(20_000);
      await gateway.drain();
    }
    await clock.advance(600_000);
    await gateway.drain();
    const frames = rx.received.filter((r) => r.json.event === 'device.qr');
    expect(frames.map((f) => [f.json.data.attempt, f.json.timestamp - t0, f.json.data.expires_in])).toEqual([
      [1, 0, 20],
      [2, 20, 20],
      [3, 40, 20],
      [4, 60, 20],
      [5, 80, 20],
    ]);
    expect(new Set(frames.map((f) => f.json.data.qr_code)).size).toBe(5);
    const statuses = rx.received.filter((r) => r.json.event === 'device.status');
    expect(statuses.map((s) => [s.json.data.status, s.json.data.reason, s.json.timestamp - t0])).toEqual([
      ['OFFLINE', 'qr_timeout', 100],
    ]);
    expect(gateway.simulate.pairing.session(device.id)?.state).toBe('expired');
  });

  it('renders each frame as a PNG data URI that draws exactly the modules of its own pairing string', async () => {
    const { gateway, clock, device } = await setup();
    gateway.simulate.pairing.start({ device_id: device.id });
    await gateway.drain();
    await clock.advance(20_000);
    await gateway.drain();
    const frames = rx.received.map((r) => r.json.data as unknown as { qr_code: string; qr_image_url: string });
    expect(frames).toHaveLength(2);
    for (const data of frames) {
      expect(data.qr_image_url).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
      const image = await decodePalettePng(decodeQrImage(data as never));
      expect(image.palette).toEqual([
        [255, 255, 255],
        [0, 0, 0],
      ]);
      const expected = expectedModules(data.qr_code, PAIRING_QR_OPTIONS.errorCorrectionLevel);
      // A light quiet zone of 4 modules around the code, then the code's own modules at their centres.
      expect(image.width).toBe((expected.length + 8) * PAIRING_QR_OPTIONS.scale);
      expect(image.pixel(1, 1)).toBe(0);
      expect(drawnModules(image, expected.length, PAIRING_QR_OPTIONS.scale)).toEqual(expected);
    }
  });

  it('pairs on scan: device.status ONLINE, no further frames, and the device can send', async () => {
    const { gateway, clock, device } = await setup();
    gateway.simulate.pairing.start({ device_id: device.id });
    await gateway.drain();
    await clock.advance(20_000);
    await gateway.drain();
    gateway.simulate.pairing.scan({ device_id: device.id });
    // Drain before moving time: a ManualClock jump past 8 s would time out a delivery still in flight.
    await gateway.drain();
    await clock.advance(200_000);
    await gateway.drain();
    expect(rx.received.map((r) => [r.json.event, r.json.data.attempt ?? r.json.data.status])).toEqual([
      ['device.qr', 1],
      ['device.qr', 2],
      ['device.status', 'ONLINE'],
    ]);
    expect(gateway.devices.get(device.id)!.status).toBe('ONLINE');
    expect(
      gateway.messages.send('default', { device_id: device.id, phone: '15551234567', message: 'hi' }),
    ).toMatchObject({ device_id: device.id, status: 'queued' });
    expect(() => gateway.simulate.pairing.scan({ device_id: device.id })).toThrow(/no pairing in progress/);
  });

  it('refuses to pair an ONLINE device with 409, so an unscanned pairing cannot take a working device OFFLINE', async () => {
    const { gateway, clock } = await setup();
    const online = gateway.devices.add({ id: 'phone-online' });
    let refusal: unknown;
    try {
      gateway.simulate.pairing.start({ device_id: online.id });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({ status: 409, field: 'device_id', message: expect.stringMatching(/ONLINE/) });
    await clock.advance(200_000);
    await gateway.drain();
    expect(gateway.devices.get(online.id)!.status).toBe('ONLINE');
    expect(rx.received).toHaveLength(0);
    expect(
      gateway.messages.send('default', { device_id: online.id, phone: '15551234567', message: 'still works' }),
    ).toMatchObject({ device_id: online.id, status: 'queued' });
  });
});
