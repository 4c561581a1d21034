import { describe, expect, it } from "vitest";
import { fixture } from "../fixtures/portraits/derive";
import { mediumShot } from "../fixtures/portraits/small-face";
import { admin, api, createAccount, publish } from "./helpers";

// The Avatar pre-flight check over real HTTP: Worker → renderer POST /checks (real download, real face models).

describe("POST /avatar-checks", () => {
  it("judges real photos at once, with reasons and face measurements, and creates nothing", async () => {
    const account = await createAccount(2);
    const ok = await api(account, "/avatar-checks", { imageUrl: publish("check-ok.jpg", fixture("single-camera")) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ acceptable: true, code: null, reason: null });
    expect(ok.body.face!.widthPx).toBeGreaterThan(150);

    const medium = await mediumShot("single-camera", { faceWidth: 93, canvas: { width: 512, height: 512 } });
    expect((await api(account, "/avatar-checks", { imageUrl: publish("check-93.jpg", medium) })).body).toMatchObject({
      acceptable: true,
    });

    const small = await mediumShot("single-camera", { faceWidth: 58, canvas: { width: 512, height: 512 } });
    const tooSmall = await api(account, "/avatar-checks", { imageUrl: publish("check-58.jpg", small) });
    expect(tooSmall.body).toMatchObject({
      acceptable: false,
      code: "image_quality_rejected",
      reason: "face_too_small",
    });
    expect(tooSmall.body.detail).toBe(
      `The face is ${tooSmall.body.face!.widthPx} px wide; at least 64 px is needed. Use a closer or larger photo.`,
    );

    const group = await api(account, "/avatar-checks", { imageUrl: publish("check-group.jpg", fixture("group-four")) });
    expect(group.body).toMatchObject({
      acceptable: false,
      reason: "multiple_faces",
      detail: "4 faces were found; exactly one is needed. Crop the photo to one person.",
      face: null,
    });

    const { account: a } = await admin(`/accounts/${account.accountId}`);
    expect({ total: a.avatarUnits, reserved: a.reservedAvatarUnits }).toEqual({ total: 2, reserved: 0 });
    expect((await api(account, "/avatar-jobs")).body.jobs).toEqual([]);
  });
});
