import { intVar, numberVar, parseVars } from "@avatar-video/contract";
import { z } from "zod";
import type { Env } from "./env";
import { REGIONS } from "./session-token/claims";

/**
 * The Worker's plain-text settings (wrangler.toml [vars], .dev.vars), read by one zod schema the first time
 * an env object is seen; unset or blank takes the default. A bad value is an error naming the variable,
 * raised before any work: a request answers 500 and logs it (app.ts), a queue batch or cron run fails
 * (index.ts).
 */
const WorkerVars = z.object({
  /** Region stamped into session tokens. */
  REGION: z.enum(REGIONS, { error: `must be one of ${REGIONS.join(", ")}` }).default("us-west"),
  /** Renderer instances jobs are spread over (the containers' max_instances). */
  RENDERER_INSTANCES: intVar(1).default(4),
  /** The share of the instances one account may hold while other accounts wait. */
  RENDERER_ACCOUNT_SHARE: numberVar("a number above 0 and at most 1", (n) => n > 0 && n <= 1).default(0.5),
  /** The stall threshold in seconds, for tests that kill renderers (unset: the pipeline's own). */
  STALL_AFTER_SECONDS: intVar(5, 60).optional(),
  /** Audio longer than this renders split across instances (unset: 120; tests shorten it). */
  SPLIT_AFTER_SECONDS: intVar(10, 3600).optional(),
});

export type WorkerConfig = z.output<typeof WorkerVars>;
type ConfigVars = keyof WorkerConfig;

/**
 * Only ENVIRONMENT=development (.dev.vars, the local stack, the tests; never wrangler.toml) makes a
 * development Worker; unset or any other value is production.
 */
export const isDevelopment = (env: Pick<Env, "ENVIRONMENT">): boolean => env.ENVIRONMENT === "development";

const parsed = new WeakMap<object, WorkerConfig>();

export function workerConfig(env: Partial<Pick<Env, ConfigVars>>): WorkerConfig {
  let config = parsed.get(env);
  if (!config) {
    config = parseVars(WorkerVars, env);
    parsed.set(env, config);
  }
  return config;
}
