/**
 * Contact sheets of the mouth on real voices and other languages (docs/phonetic-mouth.md, "Looked at"): the
 * renderer's mouth track (whole-file analysis, sampled with the video's lead) painted on a sample portrait
 * with the real mesh and painter, a crop of the mouth per tile, captioned with the video time, what the
 * frame shows and its opening (o) and press (p). Yellow captions: an m/b/p shown; cyan: a pause.
 *
 *   tsx scripts/quality/voice-sheets.ts --out docs/images [--portrait teeth] [--inputs .local/quality-samples]
 *
 *  - voice-librivox.jpg: the held-out LibriVox excerpts joined with their own pauses (64 kbps, room noise),
 *    the first 16 s, a frame every 200 ms, captioned with the aligned word
 *  - voice-prompts-en.jpg: four held-out English Asterisk prompts, every 200 ms, with the aligned phone
 *  - voice-pauses.jpg: every frame inside the LibriVox pauses ≥ 300 ms, 100 ms in from their ends
 *  - voice-real-languages.jpg: two short held-out prompts each in Spanish, French, Italian and Russian (6 s),
 *    every 200 ms, with the class transfer.ts gives what the frame shows (espeak-ng's phonemes matched by DTW;
 *    "by m/b/p" within 60 ms of one, "?" where it leaves the frame unlabelled)
 *  - voice-mbp-languages.jpg: espeak-ng's ten languages (language-words.ts) at 2×: per language the most
 *    closed frame (the strongest press, else the smallest opening) at the first bilabial of four words with
 *    one, then the most closed frame of four words without — frames the figures of quality:languages judge
 */
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp, { type OverlayOptions } from "sharp";
import { NEUTRAL_POSE } from "@avatar-video/face-rig";
import { analyzeLipSync, LIP_LEAD_SECONDS, sampleTrack } from "@avatar-video/motion-model";
import { VISEMES } from "../../packages/motion-model/src/visemes";
import { espeakTool } from "../speech/espeak-phonemes";
import { transferClasses } from "../speech/transfer";
import { decode16k, RATE } from "../speech/tts";
import { alignEnglish, corePrompts, librivox, type Clip, type Timed } from "../speech/voices";
import { speakWords } from "./espeak-languages";
import { LANGUAGES } from "./language-words";
import { POSE_SIZE as S, posePainter, type PosePainter } from "./paint-pose";
import { sampleAvatar, samplePortraits } from "./sample-portraits";
import { REAL_VOICES } from "./voices-languages";

const FPS = 25;
const EVERY = 5; // frames: 200 ms
const CAPTION = 26;
const MBP = new Set(["M", "B", "P"]);
const MBP_CLASS = VISEMES.indexOf("mbp");

type Mark = "mbp" | "pause" | "";
interface Tile {
  /** Audio time the frame shows (s) in `pcm`. */
  shows: number;
  text: string;
  mark: Mark;
}

/**
 * Paints tiles of one recording's mouth track: a crop around the rest mouth, 1.8 mouth widths wide at 1×
 * (the 768² canvas's pixels), 1.4 at `k` = 2 (nearest neighbour).
 */
function tiler(painter: PosePainter) {
  const { model } = painter;
  const P = (i: number) => [model.base[i * 2], model.base[i * 2 + 1]];
  const [cx, cy] = [(P(61)[0] + P(291)[0]) / 2, (P(13)[1] + P(14)[1]) / 2];
  const mouth = Math.hypot(P(291)[0] - P(61)[0], P(291)[1] - P(61)[1]);
  return async (pcm: Float32Array, tiles: Tile[], k: number) => {
    const w = Math.round(mouth * (k > 1 ? 1.4 : 1.8));
    const h = Math.round(w * 0.6);
    const [x0, y0] = [Math.round(cx - w / 2), Math.round(cy - h / 2)];
    const track = analyzeLipSync(pcm);
    return Promise.all(
      tiles.map(async ({ shows, text, mark }) => {
        const m = sampleTrack(track, shows);
        const { rgb } = painter.paint({
          ...NEUTRAL_POSE,
          open: m.open,
          spread: m.spread,
          round: m.round,
          press: m.press,
          tuck: m.tuck,
          relax: m.relax,
        });
        const crop = Buffer.alloc(w * h * 3);
        for (let y = 0; y < h; y++)
          crop.set(rgb.subarray(((y0 + y) * S + x0) * 3, ((y0 + y) * S + x0 + w) * 3), y * w * 3);
        const colour = mark === "mbp" ? "#ffd84a" : mark === "pause" ? "#6fd8ff" : "#dddddd";
        const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
        const line2 = `o ${m.open.toFixed(2)}  p ${m.press.toFixed(2)}`;
        const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w * k}" height="${CAPTION}"><rect width="100%" height="100%" fill="#111"/><text x="3" y="11" font-family="DejaVu Sans" font-size="11" fill="${colour}">${esc(text)}</text><text x="3" y="23" font-family="DejaVu Sans" font-size="10" fill="#999">${line2}</text></svg>`;
        return sharp(crop, { raw: { width: w, height: h, channels: 3 } })
          .resize(w * k, h * k, { kernel: "nearest" })
          .extend({ bottom: CAPTION, background: "#111" })
          .composite([{ input: Buffer.from(svg), top: h * k, left: 0 }])
          .png()
          .toBuffer();
      }),
    ).then((bufs) => ({ bufs, tw: w * k, th: h * k + CAPTION }));
  };
}

/** Tiles in rows of `columns`; a null starts a new row. */
async function writeSheet(file: string, rows: Buffer[][], tw: number, th: number, columns: number) {
  const laid: OverlayOptions[] = [];
  let y = 0;
  for (const row of rows)
    for (let i = 0; i < row.length; i += columns, y++)
      row.slice(i, i + columns).forEach((input, j) => laid.push({ input, left: j * (tw + 2), top: y * (th + 2) }));
  const img = await sharp({
    create: { width: columns * (tw + 2) - 2, height: y * (th + 2) - 2, channels: 3, background: "#000" },
  })
    .composite(laid)
    .jpeg({ quality: 58, mozjpeg: true })
    .toBuffer();
  writeFileSync(file, img);
  console.log(`${file}: ${rows.reduce((s, r) => s + r.length, 0)} tiles, ${Math.round(img.length / 1024)} KB`);
}

/** Clips joined end to end, and where each starts (s). */
function join16k(clips: Clip[]) {
  const parts = clips.map((c) => decode16k(c.wav));
  const pcm = new Float32Array(parts.reduce((s, p) => s + p.length, 0));
  const starts: number[] = [];
  parts.reduce((o, p) => (pcm.set(p, o), starts.push(o / RATE), o + p.length), 0);
  return { pcm, starts };
}

const at = (spans: Timed[], t: number) => spans.find(([, a, b]) => t >= a && t < b)?.[0];
const every200ms = (seconds: number) =>
  Array.from({ length: Math.floor((seconds * FPS) / EVERY) }, (_, i) => (i * EVERY) / FPS);

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      portrait: { type: "string", default: "teeth" },
      inputs: { type: "string", default: ".local/quality-samples" },
    },
  });
  if (!values.out) throw new Error("usage: voice-sheets.ts --out DIR [--portrait teeth] [--inputs DIR]");
  const out = values.out;
  mkdirSync(values.inputs!, { recursive: true });
  mkdirSync(out, { recursive: true });
  const portraits = await samplePortraits(values.inputs!);
  const avatar = await sampleAvatar(values.inputs!, values.portrait!, portraits[values.portrait!]);
  const painter = await posePainter(avatar.png, avatar.rig);
  const tiles = tiler(painter);
  const scratch = mkdtempSync(join(tmpdir(), "voice-sheets-"));
  try {
    // LibriVox, joined: every 200 ms over the first 16 s, and the pauses' frames.
    const book = librivox();
    const aligned = alignEnglish(book);
    const { pcm, starts } = join16k(book);
    const shift = (ts: Timed[], o: number): Timed[] => ts.map(([x, a, b]) => [x, a + o, b + o]);
    const words = book.flatMap((c, i) => shift(aligned.get(c.id)?.words ?? [], starts[i]));
    const phones = book.flatMap((c, i) => shift(aligned.get(c.id)?.phones ?? [], starts[i]));
    // A clip's trailing silence and the next one's leading silence are one pause.
    const sils = words.filter(([w]) => w === "SIL").map(([, a, b]) => [a, b]);
    const merged = sils.reduce<number[][]>((m, [a, b]) => {
      const last = m[m.length - 1];
      if (last && a - last[1] < 0.1) last[1] = b;
      else m.push([a, b]);
      return m;
    }, []);
    const pauses = merged.filter(([a, b]) => b - a >= 0.3);
    const inPause = (t: number) => pauses.some(([a, b]) => t >= a + 0.1 && t <= b - 0.1);
    const label = (t: number, digits = 1): Tile => {
      const shows = t + LIP_LEAD_SECONDS;
      const w = at(words, shows) ?? "";
      const mark = MBP.has(at(phones, shows) ?? "") ? "mbp" : inPause(shows) ? "pause" : "";
      return { shows, text: `${t.toFixed(digits)} ${w === "SIL" ? "·" : w.toLowerCase()}`, mark };
    };
    const a = await tiles(
      pcm,
      every200ms(Math.min(16, pcm.length / RATE)).map((t) => label(t)),
      1,
    );
    await writeSheet(join(out, "voice-librivox.jpg"), [a.bufs], a.tw, a.th, 10);
    const pauseTimes = pauses.flatMap(([a, b]) =>
      Array.from({ length: Math.floor((b - a - 0.2) * FPS) + 1 }, (_, i) => a + 0.1 + i / FPS),
    );
    const p = await tiles(
      pcm,
      pauseTimes.map((t) => label(t - LIP_LEAD_SECONDS, 2)),
      1,
    );
    await writeSheet(join(out, "voice-pauses.jpg"), [p.bufs], p.tw, p.th, 10);

    // English prompts: the first four held-out ones (by name) with an m/b/p, aligned, joined.
    const en = corePrompts("en")
      .filter((c) => c.heldOut)
      .sort((x, y) => x.id.localeCompare(y.id));
    const enAligned = alignEnglish(en);
    const picked = en.filter((c) => enAligned.get(c.id)?.phones.some(([ph]) => MBP.has(ph))).slice(0, 4);
    const e = join16k(picked);
    const ePhones = picked.flatMap((c, i) => shift(enAligned.get(c.id)!.phones, e.starts[i]));
    const eWords = picked.flatMap((c, i) => shift(enAligned.get(c.id)!.words, e.starts[i]));
    const en2 = await tiles(
      e.pcm,
      every200ms(e.pcm.length / RATE).map((t) => {
        const shows = t + LIP_LEAD_SECONDS;
        const ph = at(ePhones, shows) ?? "";
        const w = at(eWords, shows) ?? "";
        return {
          shows,
          text: `${t.toFixed(1)} ${w === "SIL" ? "·" : `${w.toLowerCase()} ${ph}`}`,
          mark: MBP.has(ph) ? "mbp" : "",
        };
      }),
      1,
    );
    console.log(`English prompts: ${picked.map((c) => c.id).join(", ")}`);
    await writeSheet(join(out, "voice-prompts-en.jpg"), [en2.bufs], en2.tw, en2.th, 10);

    // Other languages, real: per language the first two held-out prompts (by name) of 2–5 s with a bilabial
    // letter, joined, their first 6 s.
    const tool = espeakTool(scratch);
    const rows: Buffer[][] = [];
    let size = { tw: 0, th: 0 };
    const seconds = (c: Clip) => (statSync(c.wav).size - 44) / (2 * RATE);
    for (const lang of Object.keys(REAL_VOICES)) {
      const clips = corePrompts(lang)
        .filter((c) => c.heldOut && /[pbmпбм]/i.test(c.text) && seconds(c) >= 2 && seconds(c) <= 5)
        .sort((x, y) => x.id.localeCompare(y.id))
        .slice(0, 2);
      const { pcm, starts } = join16k(clips);
      const classes = clips.map((c) => transferClasses(tool, scratch, REAL_VOICES[lang], c.text, decode16k(c.wav)));
      const classAt = (t: number) => {
        let i = starts.length - 1;
        while (i > 0 && starts[i] > t) i--;
        return classes[i]?.[Math.floor((t - starts[i]) * 100)] ?? -1;
      };
      const r = await tiles(
        pcm,
        every200ms(Math.min(6, pcm.length / RATE)).map((t) => {
          const shows = t + LIP_LEAD_SECONDS;
          const c = classAt(shows);
          let near = false;
          for (let d = -0.06; d <= 0.06; d += 0.01) near ||= classAt(shows + d) === MBP_CLASS;
          const name = c === MBP_CLASS ? "m/b/p" : near ? "by m/b/p" : c >= 0 ? VISEMES[c] : "?";
          return { shows, text: `${lang} ${t.toFixed(1)} ${name}`, mark: near ? "mbp" : "" };
        }),
        1,
      );
      for (const c of clips) console.log(`${c.id}: "${c.text}"`);
      rows.push(r.bufs);
      size = r;
    }
    await writeSheet(join(out, "voice-real-languages.jpg"), rows, size.tw, size.th, 10);

    // Other languages, espeak-ng: four words with a bilabial, four without, per language, at 2×.
    const mbpRows: Buffer[][] = [];
    for (const [lang, def] of Object.entries(LANGUAGES)) {
      const { pcm, words } = speakWords(tool, scratch, def);
      const track = analyzeLipSync(pcm);
      // A press first (the strongest), else the smallest opening.
      const closedness = (shows: number) => {
        const m = sampleTrack(track, shows);
        return m.press >= 0.5 ? 1 + m.press : 1 - Math.min(1, m.open);
      };
      const mostClosed = (a: number, b: number) => {
        const shown: number[] = [];
        for (let n = Math.ceil((a - LIP_LEAD_SECONDS) * FPS); n <= (b - LIP_LEAD_SECONDS) * FPS; n++)
          shown.push(n / FPS + LIP_LEAD_SECONDS);
        return shown.reduce((x, y) => (closedness(y) > closedness(x) ? y : x));
      };
      const ipa = (w: (typeof words)[number]) => w.phonemes.map((p) => p.name.replace(/[ˈˌ]/g, "")).join("");
      const withB = words.filter((w) => w.bilabials.length).slice(0, 4);
      const without = words.filter((w) => !w.bilabials.length && !w.labialNear).slice(0, 4);
      const list: Tile[] = [
        ...withB.map((w) => ({
          shows: mostClosed(w.bilabials[0].a - 0.02, w.bilabials[0].b + 0.02),
          text: `${lang} ${ipa(w)}`,
          mark: "mbp" as Mark,
        })),
        ...without.map((w) => ({ shows: mostClosed(w.start, w.end), text: `${lang} ${ipa(w)}`, mark: "" as Mark })),
      ];
      const r = await tiles(pcm, list, 2);
      mbpRows.push(r.bufs);
      size = r;
    }
    await writeSheet(join(out, "voice-mbp-languages.jpg"), mbpRows, size.tw, size.th, 8);
  } finally {
    painter.close();
  }
}

await main();
