/*
 * espeak-ng speech with the sample position of every phoneme (training data for the viseme classifier,
 * scripts/speech/corpus.ts). Built on demand with `cc espeak-events.c -lespeak-ng` (Debian: libespeak-ng-dev).
 *
 *   espeak-events <voice> <words per minute> <text> <out.raw>
 *
 * Writes mono PCM16 at the printed rate to out.raw and, on stdout, "#rate N", then one line per phoneme:
 * "<sample>\t<IPA name>" (an empty name is a pause), then "#samples N".
 */
#include <espeak-ng/speak_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *pcm;
static long total = 0;

static int on_synth(short *wav, int n, espeak_EVENT *ev) {
  if (wav && n > 0) {
    fwrite(wav, 2, n, pcm);
    total += n;
  }
  for (; ev->type != espeakEVENT_LIST_TERMINATED; ev++) {
    if (ev->type != espeakEVENT_PHONEME) continue;
    char name[9];
    memcpy(name, ev->id.string, 8);
    name[8] = 0;
    printf("%d\t%s\n", ev->sample, name);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: espeak-events <voice> <wpm> <text> <out.raw>\n");
    return 2;
  }
  int rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, espeakINITIALIZE_PHONEME_EVENTS | espeakINITIALIZE_PHONEME_IPA);
  if (rate < 0 || espeak_SetVoiceByName(argv[1]) != EE_OK) return 1;
  espeak_SetSynthCallback(on_synth);
  espeak_SetParameter(espeakRATE, atoi(argv[2]), 0);
  pcm = fopen(argv[4], "wb");
  if (!pcm) return 1;
  printf("#rate %d\n", rate);
  espeak_Synth(argv[3], strlen(argv[3]) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL);
  espeak_Synchronize();
  printf("#samples %ld\n", total);
  return fclose(pcm) == 0 ? 0 : 1;
}
