/**
 * Mono PCM16 little-endian bytes to float samples in [-1, 1], chunk by chunk: a chunk may end half way
 * through a sample (its odd byte waits for the next chunk), and every chunk's samples go into one buffer.
 */

/** PCM16 little-endian can be read as an Int16Array where the platform is little-endian (every runtime here). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export class Pcm16Decoder {
  private oddByte: number | undefined;
  private scratch = new Float32Array(1024);

  /** The samples of `bytes` after any byte held back: a view, valid until the next call (callers copy it). */
  decode(bytes: Uint8Array): Float32Array {
    let data = bytes;
    if (this.oddByte !== undefined) {
      data = new Uint8Array(bytes.length + 1);
      data[0] = this.oddByte;
      data.set(bytes, 1);
      this.oddByte = undefined;
    }
    const n = data.length >> 1;
    if (data.length & 1) this.oddByte = data[data.length - 1];
    // One buffer for every chunk: a connection sends a chunk every few tens of ms for as long as it lasts.
    if (this.scratch.length < n) this.scratch = new Float32Array(Math.max(n, 2 * this.scratch.length));
    const f = this.scratch.subarray(0, n);
    if (LITTLE_ENDIAN && (data.byteOffset & 1) === 0) {
      const pcm = new Int16Array(data.buffer, data.byteOffset, n);
      for (let i = 0; i < n; i++) f[i] = pcm[i] / 32768;
    } else {
      const view = new DataView(data.buffer, data.byteOffset, n * 2);
      for (let i = 0; i < n; i++) f[i] = view.getInt16(i * 2, true) / 32768;
    }
    return f;
  }
}
