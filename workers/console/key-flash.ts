import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { fromBase64Url, toBase64Url } from "../platform/crypto/base64url";
import type { ConsoleEnv } from "./context";
import { cookieOptions } from "./sessions";

/**
 * A new App key travels from the POST that made it to the one page view that shows it (post/redirect/get):
 * sealed with AES-GCM under a key derived from SIGNING_SECRET, bound to the session (additional data), in an
 * HttpOnly cookie scoped to /console/apps that lives 2 minutes and is deleted by the view that opens it. So a
 * reload neither re-posts the form (no second App, no second rotation) nor shows the key again.
 */
export interface KeyFlash {
  appId: string;
  apiKey: string;
  appName: string;
  /** The notice shown with it ("App X created.", "Key of X rotated: …"). */
  notice: string;
}

const COOKIE = "console_new_key";
const PATH = "/console/apps";
const LIFETIME_SECONDS = 120;

async function sealingKey(secret: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveKey"]);
  const info = new TextEncoder().encode("console-key-flash-v1");
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

const boundTo = (c: Context<ConsoleEnv>) => new TextEncoder().encode(`session:${c.get("session").id}`);

/** Stores the flash for the next view of the Apps page. */
export async function setKeyFlash(c: Context<ConsoleEnv>, flash: KeyFlash): Promise<void> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(flash));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: boundTo(c) },
      await sealingKey(c.env.SIGNING_SECRET),
      plain,
    ),
  );
  setCookie(c, COOKIE, `${toBase64Url(iv)}.${toBase64Url(sealed)}`, {
    ...cookieOptions(c, LIFETIME_SECONDS),
    path: PATH,
    sameSite: "Strict",
  });
}

/** The flash, once: the cookie is deleted whatever it held; a forged, foreign or stale one yields nothing. */
export async function takeKeyFlash(c: Context<ConsoleEnv>): Promise<KeyFlash | null> {
  const raw = getCookie(c, COOKIE);
  if (raw === undefined) return null;
  deleteCookie(c, COOKIE, { path: PATH, secure: cookieOptions(c, 0).secure });
  const [iv, sealed] = raw.split(".").map((part) => fromBase64Url(part));
  if (iv?.length !== 12 || !sealed) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv, additionalData: boundTo(c) },
      await sealingKey(c.env.SIGNING_SECRET),
      sealed,
    );
    return JSON.parse(new TextDecoder().decode(plain)) as KeyFlash;
  } catch {
    return null; // sealed for another session or under another secret
  }
}
