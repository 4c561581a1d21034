/**
 * The dispatch body of `POST /jobs` (docs/architecture.md, "Renderer contract"), validated by hand:
 * the production image installs the renderer's dependencies only, and the shape is small.
 */

import {
  BACKGROUND_FITS,
  DIMENSION,
  FITS,
  HEX_COLOUR,
  LEAD_SECONDS,
  MAX_PIXEL_AREA,
  VIDEO_DEFAULTS,
  type VideoSettings,
} from "../contract/video-settings";

export type { VideoSettings };

interface DispatchBase {
  jobId: string;
  attempt: number;
  callbackUrl: string;
  token: string;
}

export interface AvatarDispatch extends DispatchBase {
  kind: "avatar";
  imageUrl: string;
  outputs: { portrait: string; rig: string; cover: string };
}

export interface VideoDispatch extends DispatchBase {
  kind: "video";
  avatar: { portrait: string; rig: string; background?: string };
  audioUrl: string;
  backgroundUrl?: string;
  settings: VideoSettings;
  outputs: { video: string };
}

export type Dispatch = AvatarDispatch | VideoDispatch;

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

class Invalid extends Error {}

function httpUrl(v: unknown, field: string): string {
  if (typeof v !== "string" || v.length < 1 || v.length > 8192) throw new Invalid(`${field} must be a URL`);
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new Invalid(`${field} must be an absolute URL`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new Invalid(`${field} must be http or https`);
  return v;
}

function optionalUrl(v: unknown, field: string): string | undefined {
  return v === undefined || v === null ? undefined : httpUrl(v, field);
}

/**
 * A caller's source URL: only "a string" here. Its rules (scheme, credentials, address policy) are
 * applied by safe-fetch when the job runs, so a bad URL ends the job with its failure code instead of
 * making the dispatch itself fail again and again.
 */
function sourceUrl(v: unknown, field: string): string {
  if (typeof v !== "string" || v.length < 1 || v.length > 8192) throw new Invalid(`${field} must be a URL string`);
  return v;
}

function settings(v: unknown): VideoSettings {
  if (v === undefined || v === null) return { ...VIDEO_DEFAULTS };
  if (!isObj(v)) throw new Invalid("settings must be an object");
  const s = { ...VIDEO_DEFAULTS, ...v } as Record<string, unknown>;
  const dim = (k: string) => {
    const n = s[k];
    if (typeof n !== "number" || !Number.isInteger(n) || n < DIMENSION.min || n > DIMENSION.max || n % 2 !== 0) {
      throw new Invalid(`settings.${k} must be an even integer from ${DIMENSION.min} to ${DIMENSION.max}`);
    }
    return n;
  };
  const lead = (k: string) => {
    const n = s[k];
    if (typeof n !== "number" || !Number.isFinite(n) || n < LEAD_SECONDS.min || n > LEAD_SECONDS.max) {
      throw new Invalid(`settings.${k} must be ${LEAD_SECONDS.min} to ${LEAD_SECONDS.max}`);
    }
    return n;
  };
  const oneOf = <T extends string>(k: string, values: readonly T[]): T => {
    if (!values.includes(s[k] as T)) throw new Invalid(`settings.${k} must be one of ${values.join(", ")}`);
    return s[k] as T;
  };
  const width = dim("width");
  const height = dim("height");
  if (width * height > MAX_PIXEL_AREA) throw new Invalid(`settings.width × settings.height must be at most ${MAX_PIXEL_AREA}`);
  if (typeof s.backgroundColor !== "string" || !HEX_COLOUR.test(s.backgroundColor)) {
    throw new Invalid("settings.backgroundColor must be #rrggbb");
  }
  return {
    width,
    height,
    fit: oneOf("fit", FITS),
    backgroundColor: s.backgroundColor.toLowerCase(),
    backgroundFit: oneOf("backgroundFit", BACKGROUND_FITS),
    leadInSeconds: lead("leadInSeconds"),
    leadOutSeconds: lead("leadOutSeconds"),
  };
}

export function parseDispatch(body: unknown): Parsed<Dispatch> {
  try {
    if (!isObj(body)) throw new Invalid("body must be a JSON object");
    const { kind, jobId, attempt, token } = body;
    if (kind !== "avatar" && kind !== "video") throw new Invalid("kind must be avatar or video");
    if (typeof jobId !== "string" || !UUID.test(jobId)) throw new Invalid("jobId must be a UUID");
    if (typeof attempt !== "number" || !Number.isInteger(attempt) || attempt < 1) throw new Invalid("attempt must be a positive integer");
    if (typeof token !== "string" || token.length < 1 || token.length > 4096) throw new Invalid("token must be a string");
    const base: DispatchBase = { jobId: jobId.toLowerCase(), attempt, callbackUrl: httpUrl(body.callbackUrl, "callbackUrl"), token };
    if (!isObj(body.outputs)) throw new Invalid("outputs must be an object");
    const outputs = body.outputs;
    if (kind === "avatar") {
      return {
        ok: true,
        value: {
          kind,
          ...base,
          imageUrl: sourceUrl(body.imageUrl, "imageUrl"),
          outputs: {
            portrait: httpUrl(outputs.portrait, "outputs.portrait"),
            rig: httpUrl(outputs.rig, "outputs.rig"),
            cover: httpUrl(outputs.cover, "outputs.cover"),
          },
        },
      };
    }
    if (!isObj(body.avatar)) throw new Invalid("avatar must be an object");
    return {
      ok: true,
      value: {
        kind,
        ...base,
        avatar: {
          portrait: httpUrl(body.avatar.portrait, "avatar.portrait"),
          rig: httpUrl(body.avatar.rig, "avatar.rig"),
          background: optionalUrl(body.avatar.background, "avatar.background"),
        },
        audioUrl: sourceUrl(body.audioUrl, "audioUrl"),
        backgroundUrl: body.backgroundUrl === undefined || body.backgroundUrl === null ? undefined : sourceUrl(body.backgroundUrl, "backgroundUrl"),
        settings: settings(body.settings),
        outputs: { video: httpUrl(outputs.video, "outputs.video") },
      },
    };
  } catch (err) {
    if (err instanceof Invalid) return { ok: false, error: err.message };
    throw err;
  }
}
