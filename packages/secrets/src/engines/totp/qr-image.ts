import { CodedError } from '@ward/base';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';

/** The QR code cannot be drawn at the requested size (fewer pixels than modules). */
export class QrTooSmallError extends CodedError<'qr_too_small'> {
  readonly code = 'qr_too_small';
  constructor(readonly modules: number) {
    super(`can not scale barcode to an image smaller than ${modules}x${modules}`);
  }
}

/**
 * A PNG of exactly `size`×`size` pixels holding `text` as a QR code, laid out as
 * established servers do: error correction M, the whole text in one byte-mode segment
 * (what "automatic" mode picks for an `otpauth://` URL, so the symbol version matches),
 * no quiet zone in the symbol, scaled by the largest whole factor that fits and centred
 * on white. 8-bit greyscale (established servers write 16-bit; any PNG of that size works
 * for clients).
 */
export function qrPng(text: string, size: number): Buffer {
  const { modules } = QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M' });
  const count = modules.size;
  if (count > size) throw new QrTooSmallError(count);
  const scale = Math.floor(size / count);
  const offset = Math.floor((size - count * scale) / 2);
  const png = new PNG({ width: size, height: size, colorType: 0, inputHasAlpha: true });
  png.data.fill(0xff);
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (modules.get(row, col)) fillBlack(png, offset + col * scale, offset + row * scale, scale);
    }
  }
  return PNG.sync.write(png, { colorType: 0 });
}

function fillBlack(png: PNG, x0: number, y0: number, scale: number): void {
  for (let y = y0; y < y0 + scale; y++) {
    const start = (y * png.width + x0) * 4;
    for (let i = start; i < start + scale * 4; i += 4) {
      png.data[i] = 0;
      png.data[i + 1] = 0;
      png.data[i + 2] = 0;
    }
  }
}
