/**
 * What renderVideo is asked to do (portrait, rig, audio, canvas settings, switches) and the checks that
 * reject a request before any work starts.
 */
import type { AvatarRig, Performance } from "@avatar-video/contract";
import { JobFailure } from "../rules/public";
import type { CanvasSettings } from "../paint/public";

export interface RenderSettings extends CanvasSettings {
  leadInSeconds: number;
  leadOutSeconds: number;
  /** The person on backgroundColor even without a background image. */
  replaceBackground?: boolean;
  /** Also the WebM with alpha of the person alone. */
  alpha?: boolean;
  /** How the Avatar performs (expression, head motion, emphasis, blinks); absent: the defaults. */
  performance?: Performance;
}

export interface RenderInput {
  portraitPng: Buffer;
  rig: AvatarRig;
  audioPath: string;
  /** Any image sharp reads. */
  background?: Buffer;
  /**
   * The Avatar's matte (media/matte-png.ts): needed when a background image is in effect, or the settings ask
   * for replaceBackground or alpha (person-scene.ts).
   */
  matte?: Buffer;
  settings: RenderSettings;
  workDir: string;
  onStage?: (stage: string) => void;
  signal?: AbortSignal;
  /** Seed for blinks and head motion (default: derived from the rig and the audio length). */
  seed?: number;
  /**
   * Test/diagnostic switches (default all on): headMotion=false removes head sway, breathing, emphasis
   * nods and transition gestures; blinks=false removes blinks. The mouth always follows the audio.
   */
  animation?: { headMotion?: boolean; blinks?: boolean };
  /** Painting threads including the caller (default: one per core but one, at least 1, at most 4). */
  threads?: number;
  /**
   * A segment of a split render (segments.ts): segment `index` of `count` equal parts of the timeline's
   * frames into an MP4 without audio. Absent: the whole video.
   */
  segment?: { index: number; count: number };
  /** With `segment`: also the video's whole audio track (segments.ts videoAudioTrack), encoded meanwhile. */
  audioTrack?: boolean;
  /** Benches only: the MP4's video codec arguments (default media/encoder.ts VIDEO_CODEC_ARGS). */
  videoArgs?: string[];
}

/** Canvas size and lead limits, then a rig with the full FaceMesh (468 points) the mesh is built from. */
export function checkRenderInput(input: RenderInput): void {
  const settings = input.settings;
  const rejected = (message: string) => new JobFailure("renderer_rejected", message);
  if (
    !Number.isInteger(settings.width) ||
    !Number.isInteger(settings.height) ||
    settings.width < 2 ||
    settings.height < 2
  )
    throw rejected("Invalid video size.");
  if (settings.width % 2 || settings.height % 2) throw rejected("Video width and height must be even.");
  if (settings.width * settings.height > 2_073_600 || settings.width > 1920 || settings.height > 1920)
    throw rejected("Video size exceeds the pixel limit.");
  if (
    !(settings.leadInSeconds >= 0 && settings.leadInSeconds <= 60) ||
    !(settings.leadOutSeconds >= 0 && settings.leadOutSeconds <= 60)
  ) {
    throw rejected("Invalid lead-in/lead-out.");
  }
  const s = input.segment;
  if (s && !(Number.isInteger(s.index) && Number.isInteger(s.count) && s.index >= 0 && s.index < s.count))
    throw rejected(`Invalid segment ${s.index} of ${s.count}.`);
  if (s && settings.alpha) throw rejected("A render with the alpha video is not split.");
  if (!input.rig || !Array.isArray(input.rig.landmarks) || input.rig.landmarks.length < 468) {
    throw new JobFailure("render_failed", "The avatar rig is invalid.", { retryable: false });
  }
}
