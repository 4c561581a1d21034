import { env, SELF } from "cloudflare:test";
import { expect, it } from "vitest";

it("answers unknown routes with the error envelope and a request id", async () => {
  const res = await SELF.fetch("http://example.com/nope");
  expect(res.status).toBe(404);
  const body = (await res.json()) as { error: { code: string; requestId: string } };
  expect(body.error.code).toBe("not_found");
  expect(body.error.requestId).toBe(res.headers.get("X-Request-ID"));
  const tables = await env.DB.prepare("select name from sqlite_master where type='table'").all();
  expect(tables.results.map((r) => r.name)).toContain("video_jobs");
});

it("answers a known path with another method 405 (Allow header) and a trailing-slash variant 404", async () => {
  const wrong = await SELF.fetch("http://example.com/v1/open/avatars", { method: "DELETE" });
  expect(wrong.status).toBe(405);
  expect(wrong.headers.get("Allow")).toContain("GET");
  const body = (await wrong.json()) as { error: { code: string; requestId: string } };
  expect(body.error.code).toBe("method_not_allowed");
  expect(body.error.requestId).toBe(wrong.headers.get("X-Request-ID"));
  expect((await SELF.fetch("http://example.com/v1/open/avatars/")).status).toBe(404);
});
