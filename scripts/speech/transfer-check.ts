/**
 * How well the label transfer of transfer.ts holds, measured where forced alignment says the truth: English
 * training prompts of the real speaker, classes per 10 ms frame from espeak-ng + DTW against the classes of
 * the PocketSphinx alignment (as corpus.ts labels them).
 *
 *   tsx scripts/speech/transfer-check.ts [--clips 80] [--voice en-us+f2]
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { HOP } from "../../packages/motion-model/src/lipsync-frame";
import { VISEMES } from "../../packages/motion-model/src/visemes";
import { arpabetVisemes } from "./arpabet-visemes";
import { espeakTool } from "./espeak-phonemes";
import { transferClasses } from "./transfer";
import { decode16k, RATE } from "./tts";
import { alignEnglish, corePrompts, VOICES_DIR } from "./voices";

const { values } = parseArgs({
  options: { clips: { type: "string", default: "80" }, voice: { type: "string", default: "en-us+f2" } },
});
const dir = join(VOICES_DIR, "transfer");
mkdirSync(dir, { recursive: true });
const tool = espeakTool(dir);
const clips = corePrompts("en")
  .filter((c) => !c.heldOut && !c.validation)
  .slice(0, Number(values.clips));
const aligned = alignEnglish(clips);
const K = VISEMES.length;
const confusion = Array.from({ length: K }, () => new Array<number>(K).fill(0));
let phones = 0;
let found = 0;
const offsets: number[] = [];
for (const c of clips) {
  const al = aligned.get(c.id);
  if (!al) continue;
  const pcm = decode16k(c.wav);
  const got = transferClasses(tool, dir, values.voice!, c.text, pcm);
  if (!got) continue;
  const truth = new Int8Array(got.length);
  for (const [p, a, b] of al.phones) {
    const cls = p === "SIL" ? [0, 0] : arpabetVisemes(p === "AH" && b - a < 0.09 ? "ax" : p.toLowerCase());
    for (let i = Math.ceil((a * RATE) / HOP - 0.5); (i + 0.5) * HOP < b * RATE && i < truth.length; i++)
      truth[i] = ((i + 0.5) * HOP) / RATE < (a + b) / 2 ? cls[0] : cls[1];
    if (p === "M" || p === "B" || p === "P") {
      phones++;
      // The nearest run of m/b/p frames the transfer gives, within 100 ms of the phone.
      const mid = ((a + b) / 2) * 100;
      let best = Infinity;
      for (let i = Math.max(0, Math.floor(mid - 10)); i <= Math.min(got.length - 1, mid + 10); i++)
        if (VISEMES[got[i]] === "mbp") best = Math.min(best, Math.abs(i - mid));
      if (best < Infinity) found++, offsets.push(best * 10);
    }
  }
  for (let i = 0; i < got.length; i++) if (got[i] >= 0 && truth[i] >= 0) confusion[truth[i]][got[i]]++;
}
const total = confusion.flat().reduce((a, b) => a + b, 0);
const right = confusion.reduce((a, row, k) => a + row[k], 0);
console.log(`frames ${total}, classes agreeing ${((100 * right) / total).toFixed(1)} %`);
console.log(
  VISEMES.map((v, k) => {
    const row = confusion[k].reduce((a, b) => a + b, 0);
    const col = confusion.reduce((a, r) => a + r[k], 0);
    return `${v}: recall ${Math.round((100 * confusion[k][k]) / (row || 1))} %, precision ${Math.round((100 * confusion[k][k]) / (col || 1))} %`;
  }).join("\n"),
);
offsets.sort((a, b) => a - b);
console.log(
  `m/b/p phones ${phones}: an m/b/p frame within 100 ms for ${Math.round((100 * found) / phones)} %; distance median ${offsets[offsets.length >> 1]} ms, 90th percentile ${offsets[Math.floor(offsets.length * 0.9)]} ms`,
);
console.log(
  `confusions (rows = forced alignment):\n${confusion.map((r, k) => `${VISEMES[k].padEnd(7)}${r.map((n) => String(n).padStart(6)).join("")}`).join("\n")}`,
);
