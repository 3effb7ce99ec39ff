/**
 * The text form (`S-1-5-21-…`) of a binary security identifier (MS-DTYP §2.4.2.2): a revision
 * byte, the count of sub-authorities, a 6-byte big-endian identifier authority, then each
 * sub-authority as 4 bytes little-endian. Undefined for bytes that are no SID (the established
 * server skips those).
 */
export function sidString(bytes: Buffer): string | undefined {
  if (bytes.length < 8) return undefined;
  const count = bytes.readUInt8(1);
  if (bytes.length !== 8 + 4 * count) return undefined;
  const parts = [`S-${bytes.readUInt8(0)}`, String(bytes.readUIntBE(2, 6))];
  for (let i = 0; i < count; i++) parts.push(String(bytes.readUInt32LE(8 + 4 * i)));
  return parts.join('-');
}
