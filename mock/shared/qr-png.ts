// Writes QR codes as PNG bytes with Web APIs only (CompressionStream), so it runs in Node, browsers and workers.
// Both the QR image route and the gateway's pairing frames draw through here.

/** Colours of a rendered code. */
export interface QrColours {
  /** Dark modules, `[r, g, b]`. */
  foreground: [number, number, number];
  /** Light modules and the quiet zone, `[r, g, b]`. */
  background: [number, number, number];
}

/** How a code is drawn. */
export interface QrPngOptions {
  /** Module and quiet-zone colours. @default black on white */
  colours?: QrColours;
  /** Error correction level. @default 'M' */
  errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H';
  /** Pixels per module. @default 8 */
  scale?: number;
}

/** Quiet zone around the code, in modules (the QR standard asks for 4). */
export const QR_MARGIN_MODULES = 4;

const BLACK_ON_WHITE: QrColours = { foreground: [0, 0, 0], background: [255, 255, 255] };

/**
 * Draws `text` as a QR code PNG (two-colour palette, 1 bit per pixel). The `qrcode` package computes the modules
 * and is imported only here, on first use; the PNG is written with Web APIs (CompressionStream), so this runs in
 * Node, browsers and workers alike.
 */
export async function renderQrPng(text: string, options: QrPngOptions = {}): Promise<Uint8Array> {
  const { colours = BLACK_ON_WHITE, errorCorrectionLevel = 'M', scale = 8 } = options;
  const { create } = await loadQrcode();
  const modules = create(text, { errorCorrectionLevel }).modules;
  const side = (modules.size + 2 * QR_MARGIN_MODULES) * scale;
  const rowBytes = Math.ceil(side / 8);
  const raw = new Uint8Array((rowBytes + 1) * side);
  for (let y = 0; y < side; y++) {
    const my = Math.floor(y / scale) - QR_MARGIN_MODULES;
    const offset = y * (rowBytes + 1) + 1; // byte 0 of each row is the filter type: 0, none
    for (let x = 0; x < side; x++) {
      const mx = Math.floor(x / scale) - QR_MARGIN_MODULES;
      const dark = my >= 0 && mx >= 0 && my < modules.size && mx < modules.size && modules.get(my, mx);
      if (dark) raw[offset + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, side);
  view.setUint32(4, side);
  header.set([1, 3, 0, 0, 0], 8); // bit depth 1, colour type 3 (palette), deflate, adaptive filters, no interlace
  return concat([
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    chunk('IHDR', header),
    chunk('PLTE', Uint8Array.from([...colours.background, ...colours.foreground])),
    chunk('IDAT', await deflate(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** Draws `text` as a QR code and returns it as a `data:image/png;base64,...` URI (the form `device.qr` frames carry). */
export async function renderQrDataUri(text: string, options: QrPngOptions = {}): Promise<string> {
  return `data:image/png;base64,${base64(await renderQrPng(text, options))}`;
}

/** Base64 of bytes with `btoa`, in slices so a large image does not overflow the argument list. */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}

// Only qrcode's pure core (no Node renderers, pngjs or yargs), so the bundled mock stays runtime-neutral.
type QrcodeCore = Pick<typeof import('qrcode'), 'create'>;

let qrcode: Promise<QrcodeCore> | undefined;

function loadQrcode(): Promise<QrcodeCore> {
  // CommonJS under ESM: `create` may sit on the namespace or on its default export depending on the loader.
  qrcode ??= import('qrcode/lib/core/qrcode.js').then((mod) => {
    const ns = mod as QrcodeCore & { default?: QrcodeCore };
    return { create: ns.create ?? ns.default!.create };
  });
  return qrcode;
}

async function deflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
