/**
 * The stream's 16 kHz samples that analysis frames may still read: appended in chunks, the ones no frame
 * reads any more are dropped before the buffer grows. Sample number `start + k` is at index k.
 */
export class PcmWindow {
  private pcm = new Float32Array(16_384);
  private view: Float32Array | undefined;
  /** Samples held. */
  length = 0;
  /** Sample number of the first sample held. */
  start = 0;

  /** Samples received so far (dropped ones included). */
  get total(): number {
    return this.start + this.length;
  }

  /** Append `s`; samples before `keepFrom` may be dropped to make room. */
  append(s: Float32Array, keepFrom: number): void {
    if (this.length + s.length > this.pcm.length) {
      const drop = Math.max(0, Math.min(this.length, keepFrom - this.start));
      this.pcm.copyWithin(0, drop, this.length);
      this.length -= drop;
      this.start += drop;
      if (this.length + s.length > this.pcm.length) {
        const next = new Float32Array(Math.max(this.pcm.length * 2, this.length + s.length));
        next.set(this.pcm.subarray(0, this.length));
        this.pcm = next;
      }
    }
    this.pcm.set(s, this.length);
    this.length += s.length;
  }

  /** Keep only samples numbered below `end`. */
  truncate(end: number): void {
    this.length = Math.max(0, Math.min(this.length, end - this.start));
  }

  /** The samples held (sample number `start + k` at index k); a view, valid until the next append. */
  get held(): Float32Array {
    // Read by every analysis frame: one view per change, not one per read.
    if (this.view?.buffer !== this.pcm.buffer || this.view.length !== this.length)
      this.view = this.pcm.subarray(0, this.length);
    return this.view;
  }
}
