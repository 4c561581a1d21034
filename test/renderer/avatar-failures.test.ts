/**
 * Failures after validation map onto the spec codes with an honest `retryable`: the face models not
 * loading is internal_error (retryable), a crop/encode error is preprocess_failed (retryable only when it
 * looks like resource exhaustion). The stages are replaced by controllable fakes.
 */
import { AVATAR_FAILURES } from "@avatar-video/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fixture } from "../fixtures/portraits/derive";

const fake = vi.hoisted(() => ({
  loadError: undefined as Error | undefined,
  cropError: undefined as Error | undefined,
}));

vi.mock("../../container/src/analysis/public", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../container/src/analysis/public")>();
  return {
    ...real,
    getHuman: () => (fake.loadError ? Promise.reject(fake.loadError) : real.getHuman()),
  };
});

// The crop step has no seam in avatar/public.ts: its own module is replaced (a mock, not an import).
vi.mock("../../container/src/avatar/crop", async (importOriginal) => {
  const real = await importOriginal<{ cropPortrait(...args: unknown[]): Promise<unknown> }>();
  return {
    cropPortrait: (...args: unknown[]) =>
      fake.cropError ? Promise.reject(fake.cropError) : real.cropPortrait(...args),
  };
});

const { createAvatarAssets } = await import("../../container/src/avatar/public");

afterEach(() => {
  fake.loadError = undefined;
  fake.cropError = undefined;
});

async function failure(bytes: Buffer) {
  return createAvatarAssets(bytes).then(
    () => expect.unreachable("should fail"),
    (e: unknown) => e as { code: string; message: string; retryable: boolean; detail?: string },
  );
}

describe("failures after validation", () => {
  it("face models that fail to load: internal_error, retryable", async () => {
    fake.loadError = new Error("ENOENT: blazeface.json");
    expect(await failure(fixture("single-phone"))).toMatchObject({
      code: "internal_error",
      message: AVATAR_FAILURES.internal_error.message,
      retryable: true,
    });
  });

  it("file rules are still checked first: a bad file is invalid_image even without models", async () => {
    fake.loadError = new Error("no models");
    expect(await failure(Buffer.from("GIF89a not really"))).toMatchObject({ code: "invalid_image", retryable: false });
  });

  it("a crop/encode error: preprocess_failed, not retryable", async () => {
    fake.cropError = new Error("extract_area: bad extract area");
    const err = await failure(fixture("single-phone"));
    expect(err).toMatchObject({
      code: "preprocess_failed",
      message: "The source image could not be preprocessed.",
      retryable: false,
    });
    expect(err.detail).toContain("bad extract area");
  });

  it("running out of memory while cropping: preprocess_failed, retryable", async () => {
    fake.cropError = new RangeError("Array buffer allocation failed");
    expect(await failure(fixture("single-phone"))).toMatchObject({ code: "preprocess_failed", retryable: true });
  });

  it("an aborted job rejects with the abort reason, not a failure code", async () => {
    const ac = new AbortController();
    ac.abort(new Error("job aborted"));
    await expect(createAvatarAssets(fixture("single-phone"), { signal: ac.signal })).rejects.toThrow("job aborted");
  });
});
