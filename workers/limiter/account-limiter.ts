import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

// Placeholder: replaced by the limiter's owner.
export class AccountLimiter extends DurableObject<Env> {}
