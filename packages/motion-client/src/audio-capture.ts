/**
 * Audio in: an AudioWorklet converts the graph's mono float samples to PCM16LE chunks of ~20 ms and hands
 * them to `onChunk`. The processor source travels as a Blob URL, so the library stays one file.
 */
const PROCESSOR = `
class Pcm16Tap extends AudioWorkletProcessor {
  constructor() { super(); this.size = Math.round(sampleRate / 50); this.buf = new Int16Array(this.size); this.n = 0; }
  process(inputs) {
    const ch = inputs[0] && inputs[0][0];
    if (ch) for (let i = 0; i < ch.length; i++) {
      const x = Math.max(-1, Math.min(1, ch[i]));
      this.buf[this.n++] = x < 0 ? x * 32768 : x * 32767;
      if (this.n === this.buf.length) { this.port.postMessage(this.buf.buffer, [this.buf.buffer]); this.buf = new Int16Array(this.size); this.n = 0; }
    }
    return true;
  }
}
registerProcessor("pcm16-tap", Pcm16Tap);
`;

export interface Capture {
  context: AudioContext;
  /** Connect a source node here to stream it. */
  input: AudioNode;
  close(): Promise<void>;
}

export async function createCapture(onChunk: (pcm16: ArrayBuffer) => void): Promise<Capture> {
  const context = new AudioContext();
  const url = URL.createObjectURL(new Blob([PROCESSOR], { type: "text/javascript" }));
  try {
    await context.audioWorklet.addModule(url);
  } finally {
    URL.revokeObjectURL(url);
  }
  const tap = new AudioWorkletNode(context, "pcm16-tap", {
    numberOfInputs: 1,
    numberOfOutputs: 1,
    channelCount: 1,
    channelCountMode: "explicit",
    channelInterpretation: "speakers",
  });
  tap.port.onmessage = (e: MessageEvent<ArrayBuffer>) => onChunk(e.data);
  // A silent path to the destination keeps the worklet pulled by the graph.
  const mute = context.createGain();
  mute.gain.value = 0;
  tap.connect(mute).connect(context.destination);
  if (context.state === "suspended") await context.resume();
  return {
    context,
    input: tap,
    close: async () => {
      tap.port.onmessage = null;
      tap.disconnect();
      await context.close();
    },
  };
}
