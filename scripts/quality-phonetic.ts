/**
 * Mouth shapes against the sounds, measured on the live motion channels (and the renderer's track of the
 * same audio) from synthetic speech of known words (docs/phonetic-mouth.md):
 *
 *   npm run quality:phonetic [-- --json out.json]
 *
 * Per voice: single words joined by 0.7 s silences, and a read passage. Figures (issue 25, point 3 and 4):
 *  - seal: share of words with m/b/p inside whose interior (the word minus 20 % at each end) has a frame
 *    with lipsClosed ≥ 0.5 or mouthOpen ≤ 0.08; seal·none the same for words without m/b/p/f/v
 *  - tuck: share of words with f/v inside whose interior has a frame with lipTuck ≥ 0.5
 *  - round AUC / Δ: rounded vs spread words by mean mouthRound over the vowel (frames within 10 dB of the
 *    word's peak), and the difference of the class means; wide AUC: spread vs rounded by mouthWide
 *  - open AUC: open vs close vowels by mean mouthOpen over the vowel
 *  - still: share of frames ≥ 0.3 s from any word with all mouth channels exactly 0
 *  - p20/p90: the passage's 20th over 90th percentile of mouthOpen in speech frames (voice within 30 dB of
 *    its 95th percentile)
 *  - 3–7 Hz: share of mouthOpen's modulation power at 3–7 Hz over the passage, ÷ the same share of the
 *    voice's amplitude envelope
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { live, passageFigures, rendered, wordFigures, wordsAudio } from "./quality/phonetic-measure";
import { PASSAGE } from "./quality/phonetic-words";
import { speak, voiceLabel, type Voice } from "./speech/tts";

/** The two espeak-ng voices, and two flite voices. None of them is in the classifier's training set. */
const VOICES: Voice[] = [
  { engine: "espeak", name: "en-us", wpm: 150 },
  { engine: "espeak", name: "en-gb+f3", wpm: 170 },
  { engine: "flite", name: "slt" },
  { engine: "flite", name: "rms" },
];

const f2 = (x: number) => x.toFixed(2);
const pc = (x: number) => `${Math.round(x * 100)} %`;

function main() {
  const { values } = parseArgs({ options: { json: { type: "string" } } });
  const rows: Array<Record<string, string | number>> = [];
  for (const voice of VOICES) {
    const words = wordsAudio(voice);
    const passage = speak(voice, PASSAGE);
    for (const [path, run] of [
      ["live", live],
      ["rendered", rendered],
    ] as const) {
      const row = {
        voice: voiceLabel(voice),
        path,
        ...wordFigures(words.pcm, words.spans, run(words.pcm)),
        ...passageFigures(passage, run(passage)),
      };
      rows.push(row);
      console.log(
        `${row.voice.padEnd(20)} ${path.padEnd(8)}  seal ${pc(row.seal)} (none ${pc(row.sealNone)})  tuck ${pc(row.tuck)}  round AUC ${f2(row.roundAuc)} Δ ${f2(row.roundDelta)}  wide AUC ${f2(row.wideAuc)}  open AUC ${f2(row.openAuc)}  still ${pc(row.still)}  p20/p90 ${f2(row.p20p90)}  3–7 Hz ${pc(row.modulation)}`,
      );
    }
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 2));
}

main();
