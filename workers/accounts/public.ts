/**
 * What the other wings use of the accounts wing: the account's limiter and its refusals, the limits operators
 * set, read rate limits, reconciliation with D1, the live motion flood cool-down, console uploads, people and
 * invites, and who may use an Avatar. The AccountLimiter class is exported by the Worker's entry from its own
 * module (it loads `cloudflare:` modules, which scripts that build the OpenAPI document in Node cannot).
 */
export { admissionError } from "./admission";
export type { Balance } from "./avatar-units";
export { canSeeAvatarMedia, canUseAvatar } from "./avatar-use-check";
export { MAX_OPEN_UPLOADS, MAX_UPLOAD_BYTES_PER_DAY } from "./console-uploads";
export { limiterFor } from "./limiter-client";
export {
  type AccountLimits,
  AvatarLimitsSchema,
  defaultAccountLimits,
  type VideoLimits,
  VideoLimitsSchema,
} from "./limits";
export {
  rememberCoolDown,
  rememberedCoolDown,
  rememberedCoolDownOfKey,
  rememberKeyAccount,
} from "./motion/cool-down-memory";
export type { MotionLimits } from "./motion/motion-connections";
export {
  createInvite,
  endSessionsOf,
  findPerson,
  findUserByEmail,
  listPeople,
  parseRole,
  removePerson,
  revokeInvites,
  setRole,
} from "./people";
export type { ReadDecision } from "./reads/read-bucket";
export { readRateLimit, readRateLimitHeaders } from "./reads/read-limit";
export { reconcileAccount } from "./reconcile/reconcile";
