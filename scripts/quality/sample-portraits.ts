/**
 * The quality sample set's four portraits (scripts/quality/samples.ts), derived from the committed fixtures
 * (test/fixtures/portraits/SOURCES.md), and each one's Avatar assets (portrait PNG and rig) made once:
 *  - phone:   single-phone.jpg as is (test portrait)
 *  - medium:  a 512×512 medium shot: single-camera.jpg (test portrait) cropped square and scaled to 512²
 *  - teeth:   group-four.jpg crop around the second woman, who smiles showing her upper teeth
 *  - glasses: group-four.jpg crop around the right-hand woman with synthetic spectacles drawn at her eyes
 *             (dark rims, bridge, temples, faint lens tint) — our fixtures have no beard or glasses, so
 *             this one is made, not found
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import type { AvatarRig } from "@avatar-video/contract";

const FIX = join(import.meta.dirname, "..", "..", "test", "fixtures", "portraits");

async function glasses(src: Buffer): Promise<Buffer> {
  const { analyzeFaces } = await import("../../container/src/analysis/public");
  const { data, info } = await sharp(src).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [f] = await analyzeFaces({ data, width: info.width, height: info.height });
  const m = f.mesh;
  const c = (a: number, b: number) => [(m[a][0] + m[b][0]) / 2, (m[a][1] + m[b][1]) / 2];
  const iod = Math.hypot(m[263][0] - m[33][0], m[263][1] - m[33][1]);
  const R = c(33, 133);
  const L = c(362, 263);
  const w = 0.44 * iod;
  const h = 0.3 * iod;
  const t = Math.max(2, 0.035 * iod);
  const ang = (Math.atan2(m[263][1] - m[33][1], m[263][0] - m[33][0]) * 180) / Math.PI;
  const lens = (p: number[]) =>
    `<rect x="${p[0] - w / 2}" y="${p[1] - h / 2}" width="${w}" height="${h}" rx="${h * 0.45}" transform="rotate(${ang} ${p[0]} ${p[1]})" fill="rgba(120,140,160,0.12)" stroke="#1d1612" stroke-width="${t}"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${info.width}" height="${info.height}">
    ${lens(R)}${lens(L)}
    <path d="M ${R[0] + w / 2} ${R[1] - h * 0.15} Q ${(R[0] + L[0]) / 2} ${(R[1] + L[1]) / 2 - h * 0.45} ${L[0] - w / 2} ${L[1] - h * 0.15}" fill="none" stroke="#1d1612" stroke-width="${t * 0.8}"/>
    <line x1="${R[0] - w / 2}" y1="${R[1] - h * 0.2}" x2="${m[234][0] + 2}" y2="${m[234][1] - h * 0.5}" stroke="#1d1612" stroke-width="${t * 0.8}"/>
    <line x1="${L[0] + w / 2}" y1="${L[1] - h * 0.2}" x2="${m[454][0] - 2}" y2="${m[454][1] - h * 0.5}" stroke="#1d1612" stroke-width="${t * 0.8}"/>
  </svg>`;
  const blurred = await sharp(Buffer.from(svg)).blur(0.8).png().toBuffer();
  return sharp(src)
    .composite([{ input: blurred }])
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** The four portrait images (JPEG paths in `dir`, made once). */
export async function samplePortraits(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const make = async (name: string, fn: () => Promise<Buffer>) => {
    const p = join(dir, `${name}.jpg`);
    if (!existsSync(p)) writeFileSync(p, await fn());
    out[name] = p;
  };
  const g4 = join(FIX, "group-four.jpg");
  await make("phone", async () => readFileSync(join(FIX, "single-phone.jpg")));
  await make("medium", () =>
    sharp(join(FIX, "single-camera.jpg"))
      .extract({ left: 0, top: 20, width: 680, height: 680 })
      .resize(512, 512, { kernel: "lanczos3" })
      .jpeg({ quality: 90 })
      .toBuffer(),
  );
  await make("teeth", () =>
    sharp(g4).extract({ left: 340, top: 150, width: 360, height: 420 }).jpeg({ quality: 92 }).toBuffer(),
  );
  await make("glasses", async () =>
    glasses(await sharp(g4).extract({ left: 930, top: 80, width: 350, height: 440 }).jpeg({ quality: 95 }).toBuffer()),
  );
  return out;
}

/** A sample portrait's Avatar assets, made with the renderer's Avatar pipeline once and kept beside it. */
export async function sampleAvatar(
  dir: string,
  name: string,
  imagePath: string,
): Promise<{ png: Buffer; rig: AvatarRig }> {
  const rigPath = join(dir, `${name}.rig.json`);
  const pngPath = join(dir, `${name}.png`);
  if (!existsSync(rigPath)) {
    const { createAvatarAssets } = await import("../../container/src/avatar/public");
    const a = await createAvatarAssets(readFileSync(imagePath));
    writeFileSync(pngPath, a.portraitPng);
    writeFileSync(rigPath, JSON.stringify(a.rig));
  }
  return { png: readFileSync(pngPath), rig: JSON.parse(readFileSync(rigPath, "utf8")) };
}
