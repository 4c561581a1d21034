/**
 * Training text for the viseme classifier: English sentences from a vocabulary that shares no word with the
 * measured word lists (scripts/quality/phonetic-words.ts), and pseudo-words in Spanish, Italian, German,
 * Portuguese, French and Polish (spelled as each reads them; the labels come from espeak-ng's own phonemes
 * anyway), so every mouth class occurs in many contexts and more than one language.
 */
import { ALL_WORDS } from "../quality/phonetic-words";
import type { Rng } from "./rng";

const VOCABULARY =
  `the a an and but or if when then because after before while of to in on at for with from by about over under
between through into onto off out up down near far here there where what which who's whose why how this that those
some many much more most few less each every all both either neither other another same such very quite rather
I you we they she it me us them her him his its our your their my mine yours ours
is are was were be been being have has had do does did will would shall should can could may might must
go went gone come came make made take took give gave get got say said tell told think thought know knew
see saw look looked find found keep kept leave left bring brought begin began run ran walk walked talk talked
move moved live lived believe believed happen happened become became seem seemed feel felt try tried call called
work worked play played turn turned start started stop stopped open opened close closed carry carried
house home room door window wall floor roof street road city town country world place school office church
mother father brother child children baby family friend people person man woman boy girl teacher doctor
morning evening night day week month year time hour minute moment season summer winter spring autumn
water fire earth air stone wood paper glass metal iron silver gold paint color picture music song voice
bread butter milk meat fish fruit apple orange banana potato tomato soup rice sugar salt pepper honey
cup plate bowl spoon fork knife bottle basket pocket button blanket pillow mirror ladder bucket
big small long short high low wide narrow thick thin heavy light dark bright warm cool cold hot wet dry
good bad new old young early late quick slow easy hard soft loud quiet clean dirty empty full rich poor
red blue green yellow brown black white purple pink grey
happy angry tired hungry afraid proud sorry lucky busy ready simple famous careful beautiful
mountain valley river ocean island forest garden meadow desert beach bridge tunnel harbor market
horse cow sheep goat pig chicken duck rabbit mouse monkey bear wolf fox eagle parrot spider turtle
book letter story poem problem question answer reason result example method system number member
around across along against among behind below beside beyond during except inside outside toward until
machine engine motor camera computer phone radio rocket planet moon star sun cloud rain snow storm wind
jump climb swim fly drive ride push pull throw catch hold drop lift kick build break fix cut sew cook bake
alpha bravo charlie delta echo foxtrot hotel india juliet kilo lima mike november oscar papa quebec romeo
sierra tango uniform victor whiskey xray yankee zulu
one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred thousand
beauty judge usual measure vision pleasure treasure azure genre beige rouge chef shoe chair cheap jeep
thumb thimble thirsty weather whether feather leather breathe smooth bathe clothes`.split(/\s+/);
/** Measured words never appear in training text. */
const ENGLISH = VOCABULARY.filter((w) => !ALL_WORDS.includes(w));

/** Pseudo-word syllables: onsets, vowels and codas, spelled as the language reads them. */
const SYLLABLES: Record<string, { on: string[]; v: string[]; coda: string[] }> = {
  es: {
    on: ["", "p", "b", "m", "f", "t", "d", "n", "l", "s", "k", "g", "ch", "r", "ll", "j", "pl", "br", "tr", "fl"],
    v: ["a", "e", "i", "o", "u", "ue", "ia", "ai", "au"],
    coda: ["", "", "", "n", "s", "l", "r"],
  },
  it: {
    on: ["", "p", "b", "m", "f", "v", "t", "d", "n", "l", "s", "c", "g", "r", "pr", "gr", "st", "sp", "z", "sc"],
    v: ["a", "e", "i", "o", "u", "uo", "ie"],
    coda: ["", "", "", "n", "l", "r"],
  },
  de: {
    on: ["", "p", "b", "m", "f", "w", "t", "d", "n", "l", "s", "k", "g", "sch", "r", "h", "z", "pf", "kn", "schw"],
    v: ["a", "e", "i", "o", "u", "ä", "ö", "ü", "ei", "au", "eu", "ie", "oo", "uh"],
    coda: ["", "", "n", "s", "l", "r", "m", "t", "ch", "ng"],
  },
  pt: {
    on: ["", "p", "b", "m", "f", "v", "t", "d", "n", "l", "s", "c", "g", "r", "ch", "lh", "nh", "j", "pr", "bl"],
    v: ["a", "e", "i", "o", "u", "ão", "ei", "ou", "ã", "õe"],
    coda: ["", "", "", "s", "r", "l", "m"],
  },
  fr: {
    on: ["", "p", "b", "m", "f", "v", "t", "d", "n", "l", "s", "c", "g", "r", "ch", "j", "pl", "br", "tr", "gn"],
    v: ["a", "é", "i", "o", "ou", "u", "eu", "an", "on", "in", "oi", "è"],
    coda: ["", "", "", "", "r", "l", "s", "c"],
  },
  pl: {
    on: ["", "p", "b", "m", "f", "w", "t", "d", "n", "l", "s", "k", "g", "sz", "cz", "rz", "ch", "pr", "zw", "ł"],
    v: ["a", "e", "i", "o", "u", "y", "ą", "ę", "ó"],
    coda: ["", "", "", "n", "m", "k", "ł", "ść"],
  },
};

export const LANGUAGES = Object.keys(SYLLABLES);

/** An English sentence of 5–12 random vocabulary words. */
export function englishSentence(rng: Rng): string {
  const n = 5 + Math.floor(rng() * 8);
  const words = Array.from({ length: n }, () => ENGLISH[Math.floor(rng() * ENGLISH.length)]);
  const comma = rng() < 0.4 ? 2 + Math.floor(rng() * (n - 3)) : -1;
  return words.map((w, i) => (i === comma ? `${w},` : w)).join(" ") + (rng() < 0.2 ? "?" : ".");
}

/** A sentence of 4–9 pseudo-words of 1–4 syllables in `lang`. */
export function pseudoSentence(rng: Rng, lang: string): string {
  const s = SYLLABLES[lang];
  const pick = (a: string[]) => a[Math.floor(rng() * a.length)];
  const word = () =>
    Array.from({ length: 1 + Math.floor(rng() * 4) }, () => pick(s.on) + pick(s.v)).join("") + pick(s.coda);
  return `${Array.from({ length: 4 + Math.floor(rng() * 6) }, word).join(" ")}.`;
}
