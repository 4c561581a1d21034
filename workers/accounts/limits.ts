import { z } from "zod";
import type { AccountLimits, AvatarLimits, VideoLimits } from "../platform/db/schema";

// The stored shape is declared with the accounts table; the rules for its values are here.
export type { AccountLimits, AvatarLimits, VideoLimits };

/** The spec's hard ceilings (Limits table). A configured limit may be lower, never higher. */
export const LIMIT_CEILINGS = {
  avatar: {
    perMinute: 20,
    perHour: 200,
    perDay: 2000,
    concurrent: 10,
    readsPerSecond: 20,
    readBurst: 40,
    readsPerMinute: 1200,
  },
  video: { perMinute: 20, perHour: 200, perDay: 2000, readsPerSecond: 20, readBurst: 40, readsPerMinute: 1200 },
} as const satisfies { avatar: AvatarLimits; video: VideoLimits };

const limitField = (family: "avatar" | "video", key: string, ceiling: number) =>
  z
    .number({ error: `limits.${family}.${key} must be an integer` })
    .int(`limits.${family}.${key} must be an integer`)
    .min(0, `limits.${family}.${key} must be at least 0`)
    .max(ceiling, `limits.${family}.${key} must be at most ${ceiling} (the hard ceiling)`);

function familySchema<F extends "avatar" | "video">(family: F) {
  const ceilings = LIMIT_CEILINGS[family] as Record<string, number>;
  return z.object(
    Object.fromEntries(Object.entries(ceilings).map(([k, c]) => [k, limitField(family, k, c)])) as {
      [K in keyof (typeof LIMIT_CEILINGS)[F]]: z.ZodNumber;
    },
  );
}

export const AvatarLimitsSchema = familySchema("avatar");
export const VideoLimitsSchema = familySchema("video");

export const defaultAccountLimits = (): AccountLimits => ({ avatar: { ...LIMIT_CEILINGS.avatar }, video: null });
