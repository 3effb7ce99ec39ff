/**
 * Text fields some clients send base64-encoded (policies, LDIF): text that is valid standard
 * base64 (padded, canonical) is decoded as UTF-8. HCL, JSON and LDIF always hold characters
 * outside the base64 alphabet (spaces, `:`, `{`), so they are never mistaken for it.
 */
export function decodeIfBase64(text: string): string {
  const compact = text.replace(/\r?\n/g, '');
  if (compact === '' || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return text;
  const bytes = Buffer.from(compact, 'base64');
  return bytes.toString('base64') === compact ? bytes.toString('utf8') : text;
}
