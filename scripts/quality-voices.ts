/**
 * Mouth shapes against the phones of real voices the classifier never heard (docs/phonetic-mouth.md, "Real
 * voices"), on the live motion channels and the renderer's track of the same audio:
 *
 *   npm run quality:voices [-- --json out.json] [--clips] [--validation] [--path live|rendered]
 *
 * Held-out English (scripts/speech/voices.ts), phone timings by forced alignment: the five LibriVox excerpts
 * of pocketsphinx-testdata (one reader, 64 kbps with room noise), joined into one recording with their own
 * silences, and Asterisk's vm-, conf-, queue-, tt- and basic- prompts (another speaker), each on its own.
 * Per clip (LibriVox), per prompt family and pooled, with the goals of issue 33:
 *  - seal: share of aligned m/b/p with a frame sealed (lipsClosed ≥ 0.5 or mouthOpen ≤ 0.08) among the
 *    frames showing it ± 20 ms (goal ≥ 90 %)
 *  - vowels sealed: share of clear vowels (not ah or er, which CMUdict also uses for a schwa) ≥ 80 ms whose
 *    centre's frame has lipsClosed ≥ 0.5 (goal ≤ 5 %)
 *  - open AUC: aa/ae/aw/ay against iy/uw/ih/uh (≥ 60 ms) by mean mouthOpen (≥ 0.8); round AUC: uw/ow/uh/oy
 *    against iy/ih/ey by mean mouthRound (≥ 0.85)
 *  - tuck: share of aligned f/v with lipTuck ≥ 0.5 in a frame showing it ± 20 ms (≥ 70 %)
 *  - pauses (LibriVox): frames showing a silence ≥ 300 ms, 100 ms in from its ends — share closed (mouthOpen ≤
 *    0.05, goal ≥ 90 %), the widest, and the speech's mean opening over the pauses' (≥ 3×)
 *  - other languages (held-out prompts of the Spanish, French, Italian and Russian speakers): seals shown
 *    (runs of lipsClosed ≥ 0.5) per bilabial of the transcript (quality/voices-languages.ts; goal 0.8–1.3)
 * `--validation`: the same figures on the validation prompts instead (voices.ts), for choices about training;
 * the held-out ones only judge the result. `--condition babble|street|reverb|telephone|mp3` measures the audio
 * as it may reach us (quality/voices-conditions.ts); `--condition all` prints the pooled English line of each.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { live, rendered, type Channels } from "./quality/phonetic-measure";
import { CONDITIONS, type Condition, degrade } from "./quality/voices-conditions";
import { closureRates } from "./quality/voices-languages";
import { figures, observe, pool, type Observations } from "./quality/voices-measure";
import { decode16k, RATE } from "./speech/tts";
import { alignEnglish, corePrompts, librivox, type Alignment } from "./speech/voices";

const pc = (x: number) => (Number.isNaN(x) ? "–" : `${Math.round(x * 100)} %`);
const f2 = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(2));

function line(label: string, o: Observations) {
  const f = figures(o);
  return (
    `${label.padEnd(28)} seal ${pc(f.seal)} (${f.mbp})  vowels sealed ${pc(f.vowelsSealed)} (${f.vowels})  ` +
    `tucked ${pc(f.vowelsTucked)}  ` +
    `open AUC ${f2(f.openAuc)}  round AUC ${f2(f.roundAuc)}  tuck ${pc(f.tuck)} (${f.fv})` +
    (f.pauseFrames
      ? `  pauses closed ${pc(f.pauseClosed)} max ${f2(f.pauseMaxOpen)} speech/pause ${f2(f.speechOverPause)}×`
      : "")
  );
}

function main() {
  const { values } = parseArgs({
    options: {
      json: { type: "string" },
      clips: { type: "boolean" },
      validation: { type: "boolean" },
      condition: { type: "string", default: "clean" },
      path: { type: "string" },
    },
  });
  const conditions = (values.condition === "all" ? CONDITIONS : [values.condition]) as Condition[];
  const verbose = conditions.length === 1;
  const say = (text: string) => verbose && console.log(text);
  const book = values.validation ? [] : librivox();
  const prompts = corePrompts("en").filter((c) => (values.validation ? c.validation : c.heldOut));
  const aligned = alignEnglish([...book, ...prompts]);
  const skipped = [...book, ...prompts].filter((c) => !aligned.has(c.id)).map((c) => c.id);

  // The excerpts joined as one recording (each keeps its own leading and trailing room noise).
  const parts = book.filter((c) => aligned.has(c.id)).map((c) => ({ clip: c, pcm: decode16k(c.wav) }));
  const joined = new Float32Array(parts.reduce((s, p) => s + p.pcm.length, 0));
  const offsets: number[] = [];
  parts.reduce((at, p) => (joined.set(p.pcm, at), offsets.push(at / RATE), at + p.pcm.length), 0);
  const bookWords = parts.flatMap((p, i) =>
    aligned.get(p.clip.id)!.words.map(([w, a, b]) => [w, a + offsets[i], b + offsets[i]] as [string, number, number]),
  );

  const rows: Record<string, unknown>[] = [];
  for (const condition of conditions)
    for (const [path, analyse] of [
      ["live", live],
      ["rendered", rendered],
    ] as const) {
      if (values.path && values.path !== path) continue;
      const run = (pcm: Float32Array) => analyse(degrade(condition, pcm));
      say(`\n${path}${condition === "clean" ? "" : `, ${condition}`}`);
      const bookCh: Channels[] = parts.length ? run(joined) : [];
      const perClip = parts.map((p, i) => observe(bookCh, aligned.get(p.clip.id)!, offsets[i]));
      const pauses = observe(bookCh, { words: bookWords, phones: [] }, 0, true);
      const book = pool([...perClip, pauses]);
      parts.forEach((p, i) => say(line(p.clip.id, perClip[i])));
      if (parts.length) say(line("librivox (pooled, pauses)", book));
      const families = new Map<string, Observations[]>();
      for (const c of prompts) {
        const al: Alignment | undefined = aligned.get(c.id);
        if (!al) continue;
        const o = observe(run(decode16k(c.wav)), al);
        const fam = values.validation ? "validation" : c.id.split("/")[1].split("-")[0];
        families.set(fam, [...(families.get(fam) ?? []), o]);
        if (values.clips) say(line(c.id, o));
      }
      for (const [fam, os] of families) say(line(`en prompts ${fam}-`, pool(os)));
      const prompted = pool([...families.values()].flat());
      say(line("en prompts (pooled)", prompted));
      const all = pool([book, prompted]);
      const label = values.validation ? "all validation English" : "all held-out English";
      console.log(line(verbose ? label : `${condition} ${path}`, all));
      if (!verbose) {
        rows.push({ condition, path, all: figures(all) });
        continue;
      }
      const languages = closureRates(run, values.validation);
      const [seals, labials] = languages.reduce(([s, l], r) => [s + r.seals, l + r.labials], [0, 0]);
      console.log(
        `closures per bilabial (0.8–1.3): ${languages.map((r) => `${r.lang} ${f2(r.perBilabial)} (${r.seals}/${r.labials}, ${r.clips} prompts)`).join(", ")}; pooled ${f2(seals / labials)}`,
      );
      rows.push({ path, librivox: figures(book), prompts: figures(prompted), all: figures(all), languages });
    }
  console.log(
    `\ngoals: seal ≥ 90 %, vowels sealed ≤ 5 %, open AUC ≥ 0.8, round AUC ≥ 0.85, tuck ≥ 70 %, pauses closed ≥ 90 %, speech/pause ≥ 3×` +
      `\n${skipped.length} ${values.validation ? "validation" : "held-out"} clips not aligned (a number of several digits, or a word the aligner's dictionary lacks): ${skipped.join(" ")}`,
  );
  if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 2));
}

main();
