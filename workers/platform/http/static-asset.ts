import type { Context } from "hono";
import type { Env } from "../env";

/** The cache rule of the scripts and style sheets the pages load. */
export const ASSET_CACHE_CONTROL = "public, max-age=300";

/**
 * The request's file from static/ (Workers Static Assets: wrangler.toml [assets], built by
 * scripts/build-assets.ts) with that cache rule. The Worker runs first for every path, so the route's
 * middleware gives the file the same page headers as the page that loads it.
 */
export async function staticAsset<E extends { Bindings: Pick<Env, "ASSETS"> }>(c: Context<E>): Promise<Response> {
  const file = await c.env.ASSETS.fetch(c.req.raw);
  const res = new Response(file.body, file);
  res.headers.set("Cache-Control", ASSET_CACHE_CONTROL);
  return res;
}
