/** Lower-case hex of bytes: stored digests (API key hashes, fingerprints) and digest-derived ids. */
export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  let hex = "";
  for (const b of new Uint8Array(bytes)) hex += b.toString(16).padStart(2, "0");
  return hex;
}
