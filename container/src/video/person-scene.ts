/**
 * The static frames a render paints from. Without a person layer: the composed canvas (paint/compose.ts), as
 * always. With one (the Avatar's matte is in use):
 *  - "over": a background image is in effect, or `replaceBackground` asks for the person on the colour —
 *    every frame is the warped person blended over the unmoving background;
 *  - "beside": only the alpha video wants the person — the MP4 frames stay exactly as without it, the
 *    person layer is painted alongside them.
 */
import sharp from "sharp";
import type { Placement } from "@avatar-video/face-rig";
import { JobFailure } from "../rules/public";
import { decodeMatte } from "../media/public";
import {
  composeCanvas,
  decodeBackground,
  parseHexColor,
  type CanvasSettings,
  composePerson,
  blendPerson,
  type PersonMode,
  rgbToYuv420,
  yuvLayout,
} from "../paint/public";
import type { RenderInput } from "./render-input";

export function personMode(input: RenderInput): PersonMode {
  if (input.background?.length || input.settings.replaceBackground) return "over";
  return input.settings.alpha ? "beside" : "none";
}

export interface StaticFrames {
  mode: PersonMode;
  /** RGB of the canvas (the face on it is the photo's): the mouth's colours are sampled from it. */
  rgb: Uint8Array;
  /** yuv420p: the video's frame where nothing moves. */
  yuv: Uint8Array;
  /** yuva420p person layer ("over", "beside"). */
  person?: Uint8Array;
  /** yuv420p background ("over"). */
  back?: Uint8Array;
  placement: Placement;
}

export async function staticFrames(input: RenderInput): Promise<StaticFrames> {
  const mode = personMode(input);
  const { width: W, height: H } = input.settings;
  if (mode === "none") {
    const { rgb, placement } = await composeCanvas(input.portraitPng, input.rig, input.background, input.settings);
    return { mode, rgb, yuv: rgbToYuv420(rgb, W, H), placement };
  }
  const person = await composePerson(input.portraitPng, await matteOf(input), input.rig, input.settings);
  const personYuva = new Uint8Array(W * H * 2.5);
  personYuva.set(rgbToYuv420(person.rgb, W, H));
  personYuva.set(person.alpha, yuvLayout(W, H).frameSize);
  if (mode === "beside") {
    const { rgb, placement } = await composeCanvas(input.portraitPng, input.rig, input.background, input.settings);
    return { mode, rgb, yuv: rgbToYuv420(rgb, W, H), person: personYuva, placement };
  }
  const back = rgbToYuv420(await backgroundRgb(input.background, input.settings), W, H);
  const yuv = new Uint8Array(back.length);
  blendPerson(personYuva, back, yuv, yuvLayout(W, H), { x0: 0, y0: 0, x1: W, y1: H });
  return { mode, rgb: person.rgb, yuv, person: personYuva, back, placement: person.placement };
}

async function matteOf(input: RenderInput): Promise<Uint8Array> {
  const { width, height } = await sharp(input.portraitPng).metadata();
  const alpha = input.matte && width && height ? await decodeMatte(input.matte, width, height) : undefined;
  if (!alpha)
    throw new JobFailure("render_failed", "The Avatar's matte is missing or does not fit its portrait.", {
      retryable: false,
    });
  return alpha;
}

/** The background image in effect, or the plain colour. */
async function backgroundRgb(background: Buffer | undefined, s: CanvasSettings): Promise<Uint8Array> {
  if (background?.length) return decodeBackground(background, s);
  const { r, g, b } = parseHexColor(s.backgroundColor);
  const out = new Uint8Array(s.width * s.height * 3);
  for (let i = 0; i < out.length; i += 3) [out[i], out[i + 1], out[i + 2]] = [r, g, b];
  return out;
}
