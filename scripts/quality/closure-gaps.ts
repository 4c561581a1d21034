/**
 * Gaps between consecutive closures (runs of lipsClosed ≥ 0.5 at 25 fps) on the real voices: a closure split
 * by a short re-opening counts twice in quality/voices-languages.ts's closures per bilabial, and a lip that
 * flickers open for a frame mid-closure shows. Validation prompts unless --held-out; live unless --rendered.
 * With --sites, each gap of ≤ 2 frames in es/fr/it/ru by transfer.ts's warp of the transcript: within one
 * m/b/p (only bilabials under the gap), between two, or next to a seal on no m/b/p.
 *
 *   npx tsx scripts/quality/closure-gaps.ts [--held-out] [--rendered] [--sites]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { espeakTool } from "../speech/espeak-phonemes";
import { decode16k } from "../speech/tts";
import { corePrompts, VOICES_DIR } from "../speech/voices";
import { isBilabial } from "./espeak-languages";
import { live, rendered } from "./phonetic-measure";
import { closureRuns, REAL_VOICES, warp, type Warp } from "./voices-languages";

const { values } = parseArgs({
  options: { "held-out": { type: "boolean" }, rendered: { type: "boolean" }, sites: { type: "boolean" } },
});
const analyse = values.rendered ? rendered : live;
const FPS = 25;
const MAX = 8;
const tool = espeakTool(join(VOICES_DIR, "transfer"));

/** Whether any / every frame of 25 fps frames [n, m) is matched to a bilabial (none matched: undefined). */
function bilabialUnder(w: NonNullable<Warp>, n: number, m: number) {
  const hits: boolean[] = [];
  for (let i = Math.floor((n / FPS) * 100); i < (m / FPS) * 100 && i < w.path.length; i++) {
    const t = (w.path[i] + 0.5) / 100;
    const p = w.phonemes.find((p) => t >= p.a && t < p.b);
    if (w.path[i] >= 0 && p) hits.push(isBilabial(p.name));
  }
  return hits.length ? { any: hits.some(Boolean), every: hits.every(Boolean) } : undefined;
}

for (const lang of [...Object.keys(REAL_VOICES), "en"]) {
  const hist = new Array<number>(MAX + 1).fill(0);
  const kinds: Record<string, number> = {};
  let [runs, clips] = [0, 0];
  for (const c of corePrompts(lang).filter((c) => (values["held-out"] ? c.heldOut : c.validation))) {
    const pcm = decode16k(c.wav);
    const r = closureRuns(analyse(pcm));
    runs += r.length;
    clips++;
    for (let i = 1; i < r.length; i++) {
      const gap = r[i][0] - r[i - 1][1] - 1;
      hist[Math.min(MAX, gap)]++;
      const w = values.sites && gap <= 2 && lang in REAL_VOICES ? warp(tool, lang, c.id, c.text, pcm) : undefined;
      if (!w) continue;
      // The frames show audio LIP_LEAD later; a frame's 40 ms is close enough to the warp's 10 ms grid here.
      const [before, under, after] = [
        bilabialUnder(w, r[i - 1][0] + 1, r[i - 1][1] + 2),
        bilabialUnder(w, r[i - 1][1] + 2, r[i][0] + 1),
        bilabialUnder(w, r[i][0] + 1, r[i][1] + 2),
      ];
      const kind = under?.every ? "within one" : before?.any && after?.any ? "between two" : "seal off m/b/p";
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    }
  }
  const cells = hist.slice(1).map((n, g) => `${g + 1 === MAX ? `≥${MAX}` : g + 1}:${n}`);
  const sites = Object.keys(kinds).length ? `; ≤ 2 frames: ${JSON.stringify(kinds)}` : "";
  console.log(`${lang} ${clips} prompts, ${runs} closures; gaps (frames) ${cells.join(" ")}${sites}`);
}
