/**
 * The teeth sample portrait (scripts/quality/sample-portraits.ts: the second woman of group-four.jpg, smiling
 * with her upper teeth showing) as an Avatar, painted pose by pose with the renderer's mesh and painter.
 */
import sharp from "sharp";
import { createAvatarAssets } from "../../../container/src/avatar/public";
import { posePainter, type PosePainter } from "../../../scripts/quality/paint-pose";
import { fixture } from "../../fixtures/portraits/derive";

export async function teethPainter(): Promise<PosePainter> {
  const teeth = await sharp(fixture("group-four"))
    .extract({ left: 340, top: 150, width: 360, height: 420 })
    .jpeg({ quality: 92 })
    .toBuffer();
  const a = await createAvatarAssets(teeth);
  return posePainter(a.portraitPng, a.rig);
}
