/**
 * The viseme classifier's training corpus: espeak-ng speech (English sentences, pseudo-words in Spanish,
 * Italian and German; 26 voice variants, 120–230 words per minute) and flite speech (voices kal16, awb and
 * slt), with the class of every 10 ms frame from the synthesiser's own phoneme timings. Each utterance is
 * warped in frequency (×0.85–1.25: longer and shorter vocal tracts, male voices made female-like) and
 * degraded (gain, spectral tilt, a sparse room echo, noise) so the classifier does not learn one
 * synthesiser's clean spectrum; frames then go through the product's own analysis (packages/motion-model).
 *
 *   tsx scripts/speech/corpus.ts [--out .local/speech] [--utterances 1500] [--seed 1] [--real-en 3]
 *     [--real es,fr,it,ru --real-times 2] [--channels [--every-channel]]
 *
 * With `--real-en N`, real speech too: the training prompts of Asterisk's English speaker (voices.ts; never
 * the held-out or validation ones), each N times with its own warp and degradation, classes from the forced
 * alignment's phones. `--real` adds the training prompts of other languages' speakers, classes carried over
 * from espeak-ng saying the transcript (transfer.ts; frames near a change of class left unlabelled).
 *
 * `--channels` also passes each utterance, after that, through the conditions a customer's audio may come
 * in (augment.ts: babble or street noise, reverb, telephone band, MP3), each drawn on its own;
 * `--every-channel` gives every utterance at least one of them.
 *
 * Writes the corpus files of corpus-files.ts. Three of the voices measured by scripts/quality-phonetic.ts (espeak-ng en-us and
 * en-gb+f3, flite rms) are never used here; flite slt is (the only female voice of a second synthesiser).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { HOP, makeFrameAnalyzer } from "../../packages/motion-model/src/lipsync-frame";
import { speakerLevels } from "../../packages/motion-model/src/lipsync";
import { MEL_BANDS } from "../../packages/motion-model/src/mel";
import { VISEMES } from "../../packages/motion-model/src/visemes";
import { makeChannel } from "./augment";
import { arpabetVisemes } from "./arpabet-visemes";
import { RAW_VALUES, writeCorpus } from "./corpus-files";
import { espeakPhonemes, espeakTool } from "./espeak-phonemes";
import { visemesOf } from "./ipa-visemes";
import { type Decoded, decodeNative, resample } from "./pcm";
import { makeRng, type Rng } from "./rng";
import { englishSentence, LANGUAGES, pseudoSentence } from "./texts";
import { transferClasses } from "./transfer";
import { decode16k, RATE } from "./tts";
import { alignEnglish, corePrompts } from "./voices";

/** Voice variants (espeak-ng-data/voices/!v) — not m1 (the plain voices' default) nor f3 (measured). */
const VARIANTS = [
  "m2",
  "m3",
  "m4",
  "m5",
  "m6",
  "m7",
  "f1",
  "f2",
  "f4",
  "f5",
  "klatt",
  "klatt2",
  "klatt3",
  "Alex",
  "Annie",
  "Andy",
  "Lee",
  "michel",
  "linda",
  "max",
  "anika",
  "aunty",
  "ed",
  "john",
  "norbert",
  "antonio",
];
const ENGLISHES = ["en-us", "en", "en-gb-x-rp", "en-gb-scotland", "en-029"];
const FLITE_VOICES = ["kal16", "awb", "slt"];

/** A phoneme: its end (s) and its class over its first and second half. */
interface Segment {
  end: number;
  classes: [number, number];
}

interface Speech {
  /** The synthesiser's output file and how ffmpeg should read it. */
  input: string[];
  segments: Segment[];
  voice: string;
}

function espeak(tool: string, dir: string, voice: string, wpm: number, text: string): Speech {
  const { input, events, end } = espeakPhonemes(tool, dir, voice, wpm, text);
  const segments = events.map((e, k) => ({
    end: k + 1 < events.length ? events[k + 1].t : end,
    classes: visemesOf(e.name),
  }));
  return { input, segments, voice };
}

function flite(dir: string, voice: string, text: string): Speech {
  const wav = join(dir, "utt.wav");
  const out = execFileSync("flite", ["-voice", voice, "-psdur", "-t", text, "-o", wav]).toString().trim().split(/\s+/);
  const segments = out.map((s) => {
    const [phone, end] = s.split(":");
    return { end: Number(end), classes: arpabetVisemes(phone) };
  });
  return { input: ["-i", wav], segments, voice: `flite ${voice}` };
}

/**
 * The training prompts of the real English speaker, each phone's class from its forced alignment. The
 * aligner's dictionary writes a schwa and a stressed "uh" alike (AH): short ones (< 90 ms) count as mid.
 */
function realEnglish(): Speech[] {
  const clips = corePrompts("en").filter((c) => !c.heldOut && !c.validation);
  const aligned = alignEnglish(clips);
  return clips.flatMap((c) => {
    const al = aligned.get(c.id);
    if (!al) return [];
    const segments = al.phones.map(([p, a, end]): Segment => {
      const name = p === "SIL" ? "pau" : p === "AH" && end - a < 0.09 ? "ax" : p.toLowerCase();
      return { end, classes: arpabetVisemes(name) };
    });
    return [{ input: ["-i", c.wav], segments, voice: `real ${c.speaker}` }];
  });
}

/** espeak-ng voices for the prompts' speakers (a variant of the speaker's sex). */
const REAL_VOICES: Record<string, string> = { es: "es-419+f2", fr: "fr+f2", it: "it+m2", ru: "ru+f2" };

/** The training prompts of another language's real speaker, classes carried over from espeak-ng's rendering. */
function realOther(tool: string, dir: string, lang: string): Speech[] {
  return corePrompts(lang)
    .filter((c) => !c.heldOut && !c.validation)
    .flatMap((c) => {
      const classes = transferClasses(tool, dir, REAL_VOICES[lang], c.text, decode16k(c.wav));
      if (!classes) return [];
      const segments: Segment[] = [];
      classes.forEach((k, i) => {
        const last = segments[segments.length - 1];
        if (last && last.classes[0] === k) last.end = ((i + 1) * HOP) / RATE;
        else segments.push({ end: ((i + 1) * HOP) / RATE, classes: [k, k] });
      });
      return [{ input: ["-i", c.wav], segments, voice: `real ${c.speaker}` }];
    });
}

/** Real prompts come back several times: each is decoded once. */
const decodedReal = new Map<string, Decoded>();

/** Decoded at 16 kHz with every frequency ×`warp` (and time ÷`warp`), silent margins of `pad` samples. */
function decodeWarped(s: Speech, warp: number, pad: number): { pcm: Float32Array; labels: Int8Array } {
  const key = s.input.join(" ");
  const real = s.voice.startsWith("real ");
  const src = (real && decodedReal.get(key)) || decodeNative(s.input);
  if (real) decodedReal.set(key, src);
  // Played at rate × warp, then resampled: ffmpeg's asetrate + aresample.
  const speech = resample(src.pcm, src.rate * warp, RATE);
  const pcm = new Float32Array(speech.length + 2 * pad);
  pcm.set(speech, pad);
  const labels = new Int8Array(Math.ceil(pcm.length / HOP)); // 0 = rest
  let start = 0;
  for (const seg of s.segments) {
    const [a, b] = [start / warp + pad / RATE, seg.end / warp + pad / RATE];
    start = seg.end;
    for (let i = Math.max(0, Math.ceil((a * RATE) / HOP - 0.5)); (i + 0.5) * HOP < b * RATE && i < labels.length; i++) {
      labels[i] = ((i + 0.5) * HOP) / RATE < (a + b) / 2 ? seg.classes[0] : seg.classes[1];
    }
  }
  return { pcm, labels };
}

/** Gain, a first-order spectral tilt, a sparse room echo and noise 15–45 dB below the speech. */
function degrade(pcm: Float32Array, rng: Rng): void {
  const dry = pcm.slice();
  if (rng() < 0.4) {
    const taps = Array.from({ length: 60 }, () => {
      const delay = Math.floor(RATE * (0.003 + 0.25 * rng() ** 2));
      return { delay, gain: (rng() - 0.5) * 0.6 * Math.exp(-delay / (RATE * (0.04 + 0.08 * rng()))) };
    });
    for (const { delay, gain } of taps) for (let i = delay; i < pcm.length; i++) pcm[i] += gain * dry[i - delay];
  }
  const tilt = (rng() - 0.5) * 1.2;
  let prev = 0;
  let power = 0;
  for (let i = 0; i < pcm.length; i++) {
    const x = pcm[i];
    pcm[i] = x + tilt * prev;
    prev = x;
    power += pcm[i] * pcm[i];
  }
  const rms = Math.sqrt(power / pcm.length);
  const noise = rms * 10 ** (-(15 + 30 * rng()) / 20);
  const gain = 10 ** (-(20 * rng()) / 20) / (rms * 8 || 1);
  for (let i = 0; i < pcm.length; i++) pcm[i] = (pcm[i] + noise * (rng() + rng() + rng() - 1.5) * 2) * gain;
}

/** Every frame's mel levels, loudness and speaker level, through the renderer's whole-file analysis. */
function features(pcm: Float32Array): Float32Array {
  const analyze = makeFrameAnalyzer();
  const n = Math.ceil(pcm.length / HOP);
  const feats = Array.from({ length: n }, (_, i) => analyze(pcm, 0, i * HOP + HOP / 2));
  const { ref } = speakerLevels(Float32Array.from(feats, (f) => f.db));
  const out = new Float32Array(n * RAW_VALUES);
  feats.forEach((f, i) => {
    out.set(f.mel, i * RAW_VALUES);
    out[i * RAW_VALUES + MEL_BANDS] = f.db;
    out[i * RAW_VALUES + MEL_BANDS + 1] = ref[i];
  });
  return out;
}

function main() {
  const { values } = parseArgs({
    options: {
      out: { type: "string", default: ".local/speech" },
      utterances: { type: "string", default: "1500" },
      seed: { type: "string", default: "1" },
      "real-en": { type: "string", default: "0" },
      real: { type: "string", default: "" },
      "real-times": { type: "string", default: "2" },
      channels: { type: "boolean", default: false },
      "every-channel": { type: "boolean", default: false },
    },
  });
  const dir = resolve(values.out!);
  mkdirSync(dir, { recursive: true });
  const tool = espeakTool(dir);
  const rng = makeRng(Number(values.seed));
  const pick = <T>(a: readonly T[]) => a[Math.floor(rng() * a.length)];
  const frames: Float32Array[] = [];
  const labels: Int8Array[] = [];
  const index: Array<{ voice: string; frames: number; conditions?: string[] }> = [];
  const channel = values.channels ? makeChannel(rng, VARIANTS, values["every-channel"]) : undefined;
  const count = Number(values.utterances);
  const real = Number(values["real-en"]) ? realEnglish() : [];
  const add = (speech: Speech) => {
    const u = decodeWarped(speech, 0.85 + 0.4 * rng(), Math.round(RATE * (0.2 + 0.5 * rng())));
    degrade(u.pcm, rng);
    const heard = channel?.(u.pcm);
    frames.push(features(heard?.pcm ?? u.pcm));
    labels.push(u.labels);
    index.push({
      voice: speech.voice,
      frames: u.labels.length,
      ...(heard?.applied.length ? { conditions: heard.applied } : {}),
    });
  };
  for (let k = 0; k < count; k++) {
    const kind = rng();
    const speech =
      kind < 0.25
        ? flite(dir, pick(FLITE_VOICES), `${englishSentence(rng)} ${englishSentence(rng)}`)
        : kind < 0.65
          ? espeak(
              tool,
              dir,
              `${pick(ENGLISHES)}+${pick(VARIANTS)}`,
              Math.round(120 + 110 * rng()),
              `${englishSentence(rng)} ${englishSentence(rng)}`,
            )
          : ((lang) =>
              espeak(tool, dir, `${lang}+${pick(VARIANTS)}`, Math.round(120 + 110 * rng()), pseudoSentence(rng, lang)))(
              pick(LANGUAGES),
            );
    add(speech);
    if (k % 100 === 0) console.log(`${k}/${count} ${speech.voice}`);
  }
  for (let r = 0; r < Number(values["real-en"]); r++) for (const speech of real) add(speech);
  if (real.length) console.log(`real English: ${real.length} prompts × ${values["real-en"]}`);
  for (const lang of values.real!.split(",").filter(Boolean)) {
    const other = realOther(tool, dir, lang);
    for (let r = 0; r < Number(values["real-times"]); r++) for (const speech of other) add(speech);
    console.log(`real ${lang}: ${other.length} prompts × ${values["real-times"]}`);
  }
  writeCorpus(dir, frames, labels, index);
  const all = new Int32Array(VISEMES.length + 1);
  for (const l of labels) for (const c of l) all[c + 1]++;
  console.log(
    `${all.reduce((a, b) => a + b, 0)} frames; unlabelled ${all[0]}; ${VISEMES.map((v, c) => `${v} ${all[c + 1]}`).join(", ")}`,
  );
}

main();
