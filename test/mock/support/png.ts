// Reads the mock's QR PNGs independently of the writer (node:zlib CRCs, the platform's inflate), so tests can check
// that an image is a well-formed PNG that draws exactly the modules of the text it claims to encode.
import { crc32 } from 'node:zlib';
import QRCode from 'qrcode';

/** The eight bytes every PNG starts with. */
export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A decoded 1-bit palette PNG. */
export interface PalettePng {
  /** Width in pixels (from IHDR). */
  width: number;
  /** Height in pixels (from IHDR). */
  height: number;
  /** Palette entries as `[r, g, b]`. */
  palette: number[][];
  /** Palette index (0 or 1) of the pixel at `x`, `y`. */
  pixel(x: number, y: number): number;
}

/** Decodes a 1-bit palette PNG, throwing on a bad signature, a bad chunk CRC or another pixel format. */
export async function decodePalettePng(png: Uint8Array): Promise<PalettePng> {
  if (PNG_SIGNATURE.some((byte, i) => png[i] !== byte)) throw new Error('PNG signature is missing');
  const chunks = readChunks(png);
  const ihdr = chunks.get('IHDR');
  const plte = chunks.get('PLTE');
  const idat = chunks.get('IDAT');
  if (!ihdr || !plte || !idat || !chunks.has('IEND')) throw new Error('IHDR, PLTE, IDAT or IEND is missing');
  const header = new DataView(ihdr.buffer, ihdr.byteOffset);
  const width = header.getUint32(0);
  const height = header.getUint32(4);
  if (ihdr[8] !== 1 || ihdr[9] !== 3) throw new Error(`not a 1-bit palette PNG (depth ${ihdr[8]}, type ${ihdr[9]})`);
  const stream = new Blob([idat as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate'));
  const raw = new Uint8Array(await new Response(stream).arrayBuffer());
  const rowBytes = Math.ceil(width / 8) + 1;
  if (raw.length !== rowBytes * height) throw new Error(`IDAT holds ${raw.length} bytes, not ${rowBytes * height}`);
  const palette = [];
  for (let at = 0; at < plte.length; at += 3) palette.push([...plte.subarray(at, at + 3)]);
  return { width, height, palette, pixel: (x, y) => (raw[y * rowBytes + 1 + (x >> 3)]! >> (7 - (x & 7))) & 1 };
}

/** The dark (true) and light modules an image draws, read at each module's centre. */
export function drawnModules(image: PalettePng, size: number, scale: number, margin = 4): boolean[][] {
  return Array.from({ length: size }, (_, my) =>
    Array.from({ length: size }, (_, mx) => {
      const centre = (m: number) => (m + margin) * scale + (scale >> 1);
      return image.pixel(centre(mx), centre(my)) === 1;
    }),
  );
}

/** The modules of `text` as the qrcode package lays them out, for comparison with {@link drawnModules}. */
export function expectedModules(text: string, errorCorrectionLevel: 'L' | 'M' | 'Q' | 'H'): boolean[][] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel });
  return Array.from({ length: modules.size }, (_, my) =>
    Array.from({ length: modules.size }, (_, mx) => Boolean(modules.get(my, mx))),
  );
}

function readChunks(png: Uint8Array): Map<string, Uint8Array> {
  const chunks = new Map<string, Uint8Array>();
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (crc32(png.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length)) {
      throw new Error(`${type} chunk has a bad CRC`);
    }
    const data = png.subarray(at + 8, at + 8 + length);
    const before = chunks.get(type);
    // Image data may be split over several IDAT chunks; they form one deflate stream.
    chunks.set(type, before && type === 'IDAT' ? Uint8Array.from([...before, ...data]) : data);
    at += 12 + length;
  }
  return chunks;
}
