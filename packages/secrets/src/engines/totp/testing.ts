import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';

// jsqr is CommonJS with types that declare an ES default export: under NodeNext the
// default import is `module.exports`, whose own `default` is the same function.
const jsQR = jsQRModule.default;

/** A decoded QR image: its size in pixels and the text of the symbol (undefined if none was found). */
export interface DecodedQr {
  width: number;
  height: number;
  text: string | undefined;
  /** Grey level (0–255) of the pixel at x, y. */
  grey(x: number, y: number): number;
}

/** Reads a PNG and decodes the QR code in it with an independent decoder (tests only). */
export function decodeQrPng(png: Buffer): DecodedQr {
  const image = PNG.sync.read(png);
  const found = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  return {
    width: image.width,
    height: image.height,
    text: found?.data,
    grey: (x, y) => image.data[(y * image.width + x) * 4] ?? -1,
  };
}
