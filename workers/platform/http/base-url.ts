import type { Context } from "hono";
import type { AppEnv } from "../env";

/** Fallback for work that runs outside a request (queue consumer, sweep) when PUBLIC_BASE_URL is empty. */
export const LOCAL_BASE_URL = "http://127.0.0.1:8787";

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** Absolute origin for links handed to clients: PUBLIC_BASE_URL when configured, else the request's origin. */
export function publicBaseUrl(c: Context<AppEnv>): string {
  const configured = c.env.PUBLIC_BASE_URL?.trim();
  return configured ? trimSlash(configured) : new URL(c.req.url).origin;
}

/** Origin for links built without a request (renderer callbacks and object URLs). */
export function backgroundBaseUrl(env: { PUBLIC_BASE_URL?: string }): string {
  const configured = env.PUBLIC_BASE_URL?.trim();
  return configured ? trimSlash(configured) : LOCAL_BASE_URL;
}
