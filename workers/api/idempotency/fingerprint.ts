import { normalizeVideoSettings, type VideoSettings, type VideoSettingsInput } from "../schemas/video-settings";
import type { z } from "zod";
import { sha256Hex } from "../../platform/crypto/digest";

/** The input a video retry key stands for, after normalization (defaults filled in, colour lower-cased). */
export interface NormalizedVideoInput {
  avatarId: string;
  audioUrl: string;
  backgroundUrl: string | null;
  name: string | null;
  settings: VideoSettings;
}

/** A video creation body (API or console) as its retry key sees it: omitted settings ≡ explicit defaults, colour case ignored. */
export function normalizeVideoInput(body: {
  avatarId: string;
  audioUrl: string;
  backgroundUrl?: string;
  name?: string;
  video?: z.infer<typeof VideoSettingsInput>;
}): NormalizedVideoInput {
  return {
    avatarId: body.avatarId,
    audioUrl: body.audioUrl,
    backgroundUrl: body.backgroundUrl ?? null,
    name: body.name ?? null,
    settings: normalizeVideoSettings(body.video),
  };
}

/** JSON with object keys sorted at every level, so equal inputs serialize to equal strings. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 (hex) of the canonical JSON: what "same normalized input" means for a retry. */
export async function videoFingerprint(input: NormalizedVideoInput): Promise<string> {
  return sha256Hex(`video-input-v1\n${canonicalJson(input)}`);
}
