/**
 * POST /v1/open/avatar-checks: the Avatar pre-flight check. Same auth, access, URL rules and envelope as
 * POST /avatars; no job, no unit, no Avatar; counted in the Avatar per-minute window only. The renderer
 * is the suite's stub (vitest.config.ts); the real check runs in the renderer and e2e tests.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAccount, getAccount, openFetch } from "../helpers/accounts";
import { expectError, json } from "../helpers/open-fixtures";
import type { OpenApiDocument } from "../helpers/openapi-document";

const check = (headers: Record<string, string>, body: unknown) => openFetch("/avatar-checks", { headers, body });
const IMAGE = "https://media.example.com/portrait.jpg";
const SMALL = "https://media.example.com/small-face.jpg";
const avatarJobCount = async (accountId: string) =>
  (await env.DB.prepare("select count(*) as n from avatar_jobs where account_id = ?")
    .bind(accountId)
    .first<{ n: number }>())!.n;

describe("POST /avatar-checks", () => {
  it("answers the verdict and the face measurements; creates no job, reserves no unit", async () => {
    const acct = await createAccount({ avatarUnits: 3 });
    const ok = await json(await check(acct.headers, { imageUrl: IMAGE }));
    expect(ok).toEqual({
      acceptable: true,
      code: null,
      reason: null,
      detail: "The image meets every Avatar image rule.",
      face: {
        box: { x: 200, y: 120, width: 220, height: 70 },
        widthPx: 220,
        sharpness: 0.04,
        yawDeg: 3,
        pitchDeg: -2,
        rollDeg: 1,
      },
    });
    const small = await json(await check(acct.headers, { imageUrl: SMALL }));
    expect(small).toMatchObject({
      acceptable: false,
      code: "image_quality_rejected",
      reason: "face_too_small",
      detail: "The face is 58 px wide; at least 64 px is needed. Use a closer or larger photo.",
      face: { widthPx: 58 },
    });
    expect(await avatarJobCount(acct.accountId)).toBe(0);
    expect(await getAccount(acct.accountId)).toMatchObject({ avatarUnits: 3, reservedAvatarUnits: 0 });
    const avatars = await json<{ avatars: unknown[] }>(await openFetch("/avatars", { headers: acct.headers }));
    expect(avatars.avatars).toEqual([]);
  });

  it("needs the App credentials and Open API access; works while Avatar creation is disabled", async () => {
    await expectError(await check({}, { imageUrl: IMAGE }), 401, "unauthorized", "Unauthorized.");
    const acct = await createAccount();
    await expectError(await check({ ...acct.headers, "X-API-Key": "wrong" }, { imageUrl: IMAGE }), 401, "unauthorized");
    const noAccess = await createAccount({ openApiAccess: false });
    await expectError(
      await check(noAccess.headers, { imageUrl: IMAGE }),
      403,
      "forbidden",
      "Open API access is not configured",
    );
    const paused = await createAccount({ avatarCreationEnabled: false });
    expect((await json(await check(paused.headers, { imageUrl: IMAGE }))).acceptable).toBe(true);
  });

  it("the URL rules of POST /avatars, in the error envelope; refused requests count nowhere", async () => {
    const acct = await createAccount({ limits: { avatar: { perMinute: 1 } } });
    await expectError(await check(acct.headers, {}), 400, "invalid_request", "imageUrl");
    await expectError(
      await check(acct.headers, { imageUrl: "ftp://example.com/x.jpg" }),
      400,
      "invalid_request",
      "imageUrl",
    );
    await expectError(
      await check(acct.headers, { imageUrl: "http://169.254.169.254/latest/meta-data/" }),
      400,
      "invalid_request",
      "imageUrl",
    );
    await expectError(
      await check(acct.headers, { imageUrl: "http://10.0.0.7/x.jpg" }),
      400,
      "invalid_request",
      "imageUrl",
    );
    await expectError(
      await check(acct.headers, { imageUrl: "https://user:pw@example.com/x.jpg" }),
      400,
      "invalid_request",
      "imageUrl",
    );
    await expectError(await check(acct.headers, { imageUrl: IMAGE, extra: 1 }), 400, "invalid_request");
    await expectError(await check(acct.headers, "{not json"), 400, "invalid_request");
    // None of those used the one slot of the minute.
    expect((await check(acct.headers, { imageUrl: IMAGE })).status).toBe(200);
  });

  it("shares the Avatar per-minute window with POST /avatars, but not the 24-hour quota", async () => {
    const acct = await createAccount({ limits: { avatar: { perMinute: 3, perDay: 1 } } });
    for (let i = 0; i < 2; i++) expect((await check(acct.headers, { imageUrl: IMAGE })).status).toBe(200);
    // Two checks used two of the three slots of the minute, none of the single daily creation.
    expect((await openFetch("/avatars", { headers: acct.headers, body: { imageUrl: IMAGE } })).status).toBe(200);
    const res = await check(acct.headers, { imageUrl: IMAGE });
    await expectError(
      res,
      429,
      "rate_limit_exceeded",
      /^Avatar creation limit exceeded: 3 per minute\. Retry after \d+ seconds\. Image checks count toward this limit\.$/,
    );
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    await expectError(
      await openFetch("/avatars", { headers: acct.headers, body: { imageUrl: IMAGE } }),
      429,
      "rate_limit_exceeded",
    );
  });

  it("503 service_unavailable when the renderer cannot answer, or answers an inconsistent verdict", async () => {
    const acct = await createAccount();
    const down = await check(acct.headers, { imageUrl: "https://media.example.com/renderer-down.jpg" });
    await expectError(
      down,
      503,
      "service_unavailable",
      "The image could not be checked right now; retry in a few seconds.",
    );
    expect(down.headers.get("Retry-After")).toBe("5");
    await expectError(
      await check(acct.headers, { imageUrl: "https://media.example.com/bad-answer.jpg" }),
      503,
      "service_unavailable",
    );
  });

  it("is in the OpenAPI document with its schemas", async () => {
    const doc = await json<OpenApiDocument>(await openFetch("/openapi.json"));
    const op = doc.paths["/v1/open/avatar-checks"].post;
    expect(op.operationId).toBe("checkAvatarImage");
    expect(op.security).toEqual([{ AppId: [], ApiKey: [] }]);
    expect(op.responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/AvatarCheck",
    });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["400", "401", "403", "429", "503"]));
    const s = doc.components.schemas;
    expect(s.AvatarCheck.required).toEqual(["acceptable", "code", "reason", "detail", "face"]);
    expect(s.AvatarReason.enum).toEqual(
      expect.arrayContaining([
        "no_face",
        "multiple_faces",
        "face_too_small",
        "face_blurred",
        "face_turned",
        "face_occluded",
        "face_cut_off",
        "image_too_small",
      ]),
    );
    expect(s.JobError.properties.reason).toBeTruthy();
    expect(s.JobError.properties.detail).toBeTruthy();
    // The reference page (Scalar) renders the document it is served: the route and its reasons are in it.
    const html = await (await openFetch("/docs")).text();
    expect(html).toContain("/v1/open/openapi.json");
    const served = await (await openFetch("/openapi.json")).text();
    expect(served).toContain("/avatar-checks");
    expect(served).toContain("face_too_small");
  });
});
