/**
 * A video run reads its Avatar's artifacts (portrait, rig) back from the Worker: anything missing or off
 * is `invalid_manifest` (the renderer cannot use it); the transfers' failures: objectFailure
 * (rules/fetch-failures.ts).
 */
import { AvatarRigSchema, type AvatarRig } from "@avatar-video/contract";
import sharp from "sharp";
import { invalidManifest } from "../rules/public";

/** Parses and checks the stored rig against the contract's schema. */
export function parseRig(bytes: Buffer): AvatarRig {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw invalidManifest("rig is not JSON");
  }
  const parsed = AvatarRigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidManifest(`rig: ${issue.path.join(".") || "(root)"} ${issue.message}`);
  }
  return raw as AvatarRig;
}

/** The portrait must decode and have the size the rig was measured on. */
export async function checkPortrait(png: Buffer, rig: AvatarRig): Promise<void> {
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    meta = await sharp(png).metadata();
  } catch {
    throw invalidManifest("portrait does not decode");
  }
  if (meta.width !== rig.portrait.width || meta.height !== rig.portrait.height) {
    throw invalidManifest(
      `portrait is ${meta.width}x${meta.height}, rig says ${rig.portrait.width}x${rig.portrait.height}`,
    );
  }
}
