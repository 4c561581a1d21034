import type { Env } from "../env";

// Placeholder: replaced by the pipeline's owner.
export async function runSweep(_env: Env, _now: number) {}
