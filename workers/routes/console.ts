import { Hono } from "hono";
import type { AppEnv } from "../env";

// Placeholder: replaced by the module's owner.
export const consoleRoutes = new Hono<AppEnv>();
