import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

/** Local secrets of the Worker and the renderer; generated once into .dev.vars (git-ignored). */
export interface DevVars {
  ADMIN_TOKEN: string;
  SIGNING_SECRET: string;
  RENDERER_TOKEN: string;
  SESSION_TOKEN_PRIVATE_KEY: string;
  SESSION_TOKEN_PUBLIC_KEY: string;
}

export function parseDevVars(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*"?(.*?)"?\s*$/.exec(line);
    if (m) vars[m[1]] = m[2];
  }
  return vars;
}

export function generateDevVars(): DevVars {
  const keys = generateKeyPairSync("ed25519");
  return {
    ADMIN_TOKEN: `adm_${randomBytes(24).toString("base64url")}`,
    SIGNING_SECRET: randomBytes(32).toString("base64url"),
    RENDERER_TOKEN: randomBytes(24).toString("base64url"),
    SESSION_TOKEN_PRIVATE_KEY: keys.privateKey.export({ type: "pkcs8", format: "der" }).toString("base64"),
    SESSION_TOKEN_PUBLIC_KEY: keys.publicKey.export({ type: "spki", format: "der" }).toString("base64"),
  };
}

/**
 * Settings that exist only on a developer's machine (never in wrangler.toml [vars], docs/operations.md):
 * ENVIRONMENT=development is what lets the Worker dispatch to a renderer on loopback.
 */
export const DEV_SETTINGS = {
  ENVIRONMENT: "development",
  RENDERER_URL: "http://127.0.0.1:8790",
  SOURCE_ALLOWLIST: "",
} as const;

/** Reads .dev.vars, adding any missing secret or dev setting (existing values are kept across restarts). */
export function ensureDevVars(path: string): DevVars {
  const existing = existsSync(path) ? parseDevVars(readFileSync(path, "utf8")) : {};
  const merged = { ...generateDevVars(), ...DEV_SETTINGS, ...existing } as DevVars & Record<string, string>;
  const text = `${Object.entries(merged)
    .map(([k, v]) => `${k}="${v}"`)
    .join("\n")}\n`;
  if (!existsSync(path) || readFileSync(path, "utf8") !== text) writeFileSync(path, text, { mode: 0o600 });
  return merged;
}
