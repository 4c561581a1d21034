"""Phone timings of English recordings from their transcripts (forced alignment with PocketSphinx 5 and its
bundled en-us model): prints one JSON line per input, {"id", "words": [[word, start, end]], "phones":
[[phone, start, end]]}, times in seconds on the recording, SIL for silences between words.

    python scripts/speech/align.py < jobs.jsonl     # each line {"id", "wav" (16 kHz mono), "text"}

Run it with a Python that has `pocketsphinx` 5 (scripts/speech/voices.ts makes a venv in .local/voices).
Words missing from the dictionary are an error naming them. Two passes, as PocketSphinx asks for sub-word
alignment: words with the transcript as the only path, then phones within them.
"""
import json
import sys
import wave

from pocketsphinx import Decoder

decoder = Decoder(samprate=16000, loglevel="ERROR")
FRAME = 0.01  # PocketSphinx counts in 10 ms frames


def align(wav_path, text):
    with wave.open(wav_path, "rb") as w:
        if w.getframerate() != 16000 or w.getnchannels() != 1 or w.getsampwidth() != 2:
            raise ValueError(f"{wav_path}: want 16 kHz mono PCM16")
        data = w.readframes(w.getnframes())
    words = text.lower().split()
    missing = [x for x in words if decoder.lookup_word(x) is None]
    if missing:
        raise ValueError(f"not in the dictionary: {' '.join(sorted(set(missing)))}")
    decoder.set_align_text(" ".join(words))
    for _ in range(2):
        decoder.start_utt()
        decoder.process_raw(data, full_utt=True)
        decoder.end_utt()
        if _ == 0:
            decoder.set_alignment()
    al = decoder.get_alignment()
    out_words, out_phones = [], []
    for word in al:
        a, b = word.start * FRAME, (word.start + word.duration) * FRAME
        name = word.name.split("(")[0]
        if name in ("<s>", "</s>", "<sil>"):
            name = "SIL"
        out_words.append([name, round(a, 2), round(b, 2)])
        for phone in word:
            out_phones.append([phone.name, round(phone.start * FRAME, 2), round((phone.start + phone.duration) * FRAME, 2)])
    return {"words": out_words, "phones": out_phones}


for line in sys.stdin:
    if not line.strip():
        continue
    job = json.loads(line)
    try:
        print(json.dumps({"id": job["id"], **align(job["wav"], job["text"])}), flush=True)
    except Exception as e:  # report per clip, keep going
        print(json.dumps({"id": job["id"], "error": str(e)}), flush=True)
