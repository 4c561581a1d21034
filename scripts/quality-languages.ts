/**
 * Lips in other languages (docs/phonetic-mouth.md, "Other languages"), on the live motion channels and the
 * renderer's track of the same audio:
 *
 *   npm run quality:languages [-- --json out.json] [--only es,ru] [--no-real]
 *
 * Synthetic: espeak-ng's voices of ten languages saying common words (quality/language-words.ts), its own
 * phonemes saying where the p/b/m are (quality/espeak-languages.ts): words with p/b/m sealed at each of them
 * (goal ≥ 85 %), words without showing a seal (≤ 15 %), and which phonemes the misses and false seals fall on.
 * Real: Asterisk's held-out prompts in Spanish, French, Italian and Russian (quality/voices-languages.ts):
 * closures per bilabial of the transcript (0.8–1.3) and where the closures fall.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { languageFigures, speakWords, type LanguageFigures } from "./quality/espeak-languages";
import { LANGUAGES } from "./quality/language-words";
import { live, rendered } from "./quality/phonetic-measure";
import { closureRates } from "./quality/voices-languages";
import { espeakTool } from "./speech/espeak-phonemes";

const pc = (x: number) => `${Math.round(x * 100)} %`;
const PATHS = { live, rendered } as const;

/** "n 3 (nein, Sonne, …)" for the phonemes of `m`, most frequent first. */
const list = (m: Map<string, string[]>) =>
  [...m]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([p, ws]) => `${p} ${ws.length} (${ws.slice(0, 4).join(", ")}${ws.length > 4 ? ", …" : ""})`)
    .join("; ") || "–";

function line(label: string, f: LanguageFigures) {
  return (
    `${label.padEnd(16)} with p/b/m sealed ${pc(f.sealedWords / f.withWords).padStart(5)} of ${f.withWords}` +
    ` (pressed ${pc(f.pressedSealWords / f.withWords).padStart(5)}; bilabials ${pc(f.sealedBilabials / f.bilabials)} of ${f.bilabials})` +
    `  without, sealed ${pc(f.falseWords / f.withoutWords).padStart(5)} of ${f.withoutWords} (pressed ${pc(f.pressedWords / f.withoutWords)})`
  );
}

const COUNTS = [
  "withWords",
  "sealedWords",
  "pressedSealWords",
  "bilabials",
  "sealedBilabials",
  "withoutWords",
  "falseWords",
  "pressedWords",
] as const;

function main() {
  const { values } = parseArgs({
    options: { json: { type: "string" }, only: { type: "string" }, "no-real": { type: "boolean" } },
  });
  const dir = mkdtempSync(join(tmpdir(), "quality-languages-"));
  const tool = espeakTool(dir);
  const langs = values.only ? values.only.split(",") : Object.keys(LANGUAGES);
  const rows: Record<string, unknown>[] = [];
  const pooled = Object.fromEntries(Object.keys(PATHS).map((p) => [p, { missed: new Map(), falseAt: new Map() }]));
  for (const lang of langs) {
    const { pcm, words } = speakWords(tool, dir, LANGUAGES[lang]);
    for (const [path, run] of Object.entries(PATHS)) {
      const f = languageFigures(run(pcm), words);
      console.log(line(`${lang} ${path}`, f));
      if (path === "live")
        console.log(
          `   missed: ${list(f.missed)}\n   not pressed: ${list(f.unpressed)}\n   false seals at: ${list(f.falseAt)}`,
        );
      const p: Record<string, unknown> = pooled[path];
      for (const k of COUNTS) p[k] = ((p[k] as number) ?? 0) + f[k];
      const maps = { missed: f.missed, unpressed: f.unpressed, falseAt: f.falseAt };
      rows.push({
        lang,
        path,
        ...f,
        ...Object.fromEntries(Object.entries(maps).map(([k, m]) => [k, Object.fromEntries(m)])),
      });
    }
  }
  for (const [path, f] of Object.entries(pooled)) console.log(line(`pooled ${path}`, f as LanguageFigures));
  console.log("goals: with p/b/m sealed ≥ 85 %, without ≤ 15 %");
  if (!values["no-real"]) {
    console.log("\nreal voices, held-out Asterisk prompts: closures per bilabial of the transcript (0.8–1.3)");
    for (const [path, run] of Object.entries(PATHS)) {
      const real = closureRates(run, false, true);
      for (const r of real)
        console.log(
          `${r.lang} ${path.padEnd(8)} ${(r.seals / (r.labials || 1)).toFixed(2)} (${r.seals} closures / ${r.labials} bilabials, ${r.clips} prompts)  at: ${Object.entries(
            r.sites,
          )
            .sort((a, b) => b[1] - a[1])
            .slice(0, 12)
            .map(([s, n]) => `${s} ${n}`)
            .join(", ")}`,
        );
      rows.push({ path, real });
    }
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 2));
}

main();
