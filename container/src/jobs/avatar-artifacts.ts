/**
 * A video run reads its Avatar's artifacts (portrait, rig) back from the Worker: anything missing or off
 * is `invalid_manifest` (the renderer cannot use it); a transfer that keeps failing is our fault.
 */
import { AvatarRigSchema, type AvatarRig } from "@avatar-video/contract";
import sharp from "sharp";
import { JobFailure, unexpectedFailure } from "../job-failure";
import { LinkError } from "../io/public";

const INVALID_MANIFEST = "The Avatar's stored data is missing or invalid.";

/** Failures reading the Avatar's own artifacts back from the Worker. */
export function objectFailure(what: string) {
  return (err: unknown): never => {
    if (err instanceof LinkError && err.status === 404) {
      throw new JobFailure("invalid_manifest", INVALID_MANIFEST, { detail: `${what} is missing (404)` });
    }
    if (err instanceof LinkError && err.permanent) {
      throw new JobFailure("invalid_manifest", INVALID_MANIFEST, { detail: `${what}: ${err.message}` });
    }
    if (err instanceof LinkError) throw unexpectedFailure("video", `${what}: ${err.message}`);
    throw err;
  };
}

/** Parses and checks the stored rig against the contract's schema. */
export function parseRig(bytes: Buffer): AvatarRig {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new JobFailure("invalid_manifest", INVALID_MANIFEST, { detail: "rig is not JSON" });
  }
  const parsed = AvatarRigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new JobFailure("invalid_manifest", INVALID_MANIFEST, {
      detail: `rig: ${issue.path.join(".") || "(root)"} ${issue.message}`,
    });
  }
  return raw as AvatarRig;
}

/** The portrait must decode and have the size the rig was measured on. */
export async function checkPortrait(png: Buffer, rig: AvatarRig): Promise<void> {
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    meta = await sharp(png).metadata();
  } catch {
    throw new JobFailure("invalid_manifest", INVALID_MANIFEST, { detail: "portrait does not decode" });
  }
  if (meta.width !== rig.portrait.width || meta.height !== rig.portrait.height) {
    throw new JobFailure("invalid_manifest", INVALID_MANIFEST, {
      detail: `portrait is ${meta.width}x${meta.height}, rig says ${rig.portrait.width}x${rig.portrait.height}`,
    });
  }
}
