// The Worker is type-checked without @types/node; nodejs_compat provides node:crypto at runtime.
// Declares only what the signed-link code uses.
declare module "node:crypto" {
  interface Hmac {
    update(data: string): Hmac;
    digest(encoding: "base64url" | "hex"): string;
  }
  export function createHmac(algorithm: "sha256", key: string): Hmac;
}
