import QRCode from 'qrcode';
import type { TotpMethod } from '../core/identity/index.js';

/** The `otpauth://totp/<issuer>:<entity id>?...` URL of an entity's secret for `method`. */
export function totpUrl(method: TotpMethod, entityId: string, secret: string): string {
  const params = new URLSearchParams({
    algorithm: method.algorithm,
    digits: String(method.digits),
    issuer: method.issuer,
    period: String(method.period),
    secret,
  });
  return `otpauth://totp/${encodeURIComponent(method.issuer)}:${encodeURIComponent(entityId)}?${params}`;
}

/** Base64 PNG of the URL as a QR code `qrSize` pixels wide; `''` when the method asks for none. */
export async function qrBarcode(url: string, qrSize: number): Promise<string> {
  if (qrSize === 0) return '';
  return (await QRCode.toBuffer(url, { type: 'png', width: qrSize, margin: 1 })).toString('base64');
}
