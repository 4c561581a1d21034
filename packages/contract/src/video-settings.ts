/**
 * The video settings contract, defined once: the Worker's zod schema (request validation, OpenAPI) and the
 * renderer's dispatch check both read these values. Pure TypeScript: both runtimes load it.
 */
import type { Performance } from "./performance";

export const FITS = ["crop", "contain"] as const;
export const BACKGROUND_FITS = ["cover", "contain", "stretch"] as const;
export const DIMENSION = { min: 64, max: 1920 } as const;
export const LEAD_SECONDS = { min: 0, max: 60 } as const;
/** Largest canvas, in pixels (effective width × height, defaults included). */
export const MAX_PIXEL_AREA = 2_073_600;
export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

export interface VideoSettings {
  width: number;
  height: number;
  fit: (typeof FITS)[number];
  /** Lower-case #rrggbb once normalized. */
  backgroundColor: string;
  backgroundFit: (typeof BACKGROUND_FITS)[number];
  leadInSeconds: number;
  leadOutSeconds: number;
  /**
   * The person on `backgroundColor` even without a background image (with one, the person is always in
   * front of it). Normalised away when false: omitted and false are the same input.
   */
  replaceBackground?: true;
  /** Also a WebM with alpha of the person alone (VP9, yuva420p, Opus). Normalised away when false. */
  alpha?: true;
  /** How the Avatar performs (performance.ts). Normalised away when it changes nothing. */
  performance?: Performance;
}

/** The switches of VideoSettings that are stored only when true. */
export const VIDEO_SWITCHES = ["replaceBackground", "alpha"] as const;

export const VIDEO_DEFAULTS = {
  width: 1024,
  height: 1024,
  fit: "crop",
  backgroundColor: "#000000",
  backgroundFit: "cover",
  leadInSeconds: 0,
  leadOutSeconds: 0,
} as const satisfies VideoSettings;
