/** CRC-32 (IEEE 802.3, as java.util.zip.CRC32): the one digest of `@hash` that the hash library has not. */

let table: Int32Array | null = null;

function crcTable(): Int32Array {
  if (table) return table;
  table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
}

export function crc32(bytes: Uint8Array): number {
  const t = crcTable();
  let crc = -1;
  for (const b of bytes) crc = t[(crc ^ b) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}
