import { createExecutionContext, createMessageBatch, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../../../workers/platform/env";
import worker from "../../../workers/index";
import { isDevelopment, workerConfig } from "../../../workers/platform/config";
import { logEvent } from "../../../workers/platform/logging/log-event";
import { dispatchToRenderer, RendererUnavailable } from "../../../workers/pipeline/renderer/client";
import type { RendererPayload } from "../../../workers/pipeline/renderer/payload";
import type { JobMessage } from "../../../workers/pipeline/public";
import { rendererUrlRefusal } from "../../../workers/pipeline/renderer/renderer-target";
import { runSweep } from "../../../workers/pipeline/queue/sweep";
import { backgroundBaseUrl } from "../../../workers/platform/http/base-url";
import { consume, createAvatarJob, fakeRenderer } from "../helpers/pipeline";
import { createAccount } from "../helpers/accounts";

afterEach(() => vi.restoreAllMocks());

const LOCAL = [
  "http://127.0.0.1:8790",
  "http://127.8.9.10",
  "http://localhost:8790",
  "http://renderer.localhost",
  "http://[::1]:8790",
  "http://10.0.0.5",
  "http://172.16.3.4:8080",
  "http://192.168.1.20",
  "http://169.254.169.254",
  "http://100.64.0.1",
  "http://0.0.0.0:8790",
  "http://[fd00::1]",
  "http://[::ffff:127.0.0.1]",
];

describe("renderer address by environment", () => {
  it("the test suite runs as development, like .dev.vars and the local stack", () => {
    expect(env.ENVIRONMENT).toBe("development");
    expect(isDevelopment(env)).toBe(true);
  });

  it("outside development a loopback, private or link-local RENDERER_URL is refused, with a reason naming it", () => {
    for (const url of LOCAL) {
      for (const ENVIRONMENT of [undefined, "", "production", "Development", "dev"]) {
        const reason = rendererUrlRefusal({ RENDERER_URL: url, ENVIRONMENT });
        expect(reason, `${url} ${ENVIRONMENT}`).toMatch(
          /^RENDERER_URL http.* is a [a-z0-9-]+ address; only a Worker with ENVIRONMENT=development/,
        );
      }
    }
    expect(rendererUrlRefusal({ RENDERER_URL: "not a url" })).toMatch(/not an absolute URL/);
  });

  it("development may use them; a public renderer or the Container binding (no RENDERER_URL) is fine anywhere", () => {
    for (const url of LOCAL) expect(rendererUrlRefusal({ RENDERER_URL: url, ENVIRONMENT: "development" })).toBeNull();
    for (const url of ["https://renderer.example.com", "http://203.0.114.7:8080", "https://[2606:4700::1111]"]) {
      expect(rendererUrlRefusal({ RENDERER_URL: url })).toBeNull();
    }
    expect(rendererUrlRefusal({ RENDERER_URL: undefined })).toBeNull();
    expect(rendererUrlRefusal({ RENDERER_URL: "" })).toBeNull();
  });

  it("a production Worker never dispatches to loopback: no request leaves, one clear error line, the job waits (retryable)", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const errors: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: string) => void errors.push(line));
    const prodEnv = { ...env, ENVIRONMENT: undefined, RENDERER_URL: "http://127.0.0.1:8790" } as Env;
    const payload = { jobId: crypto.randomUUID(), kind: "video", attempt: 1 } as unknown as RendererPayload;
    await expect(dispatchToRenderer(prodEnv, payload, 0)).rejects.toBeInstanceOf(RendererUnavailable);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(errors.map((l) => JSON.parse(l))).toEqual([
      {
        event: "renderer_address_refused",
        level: "error",
        jobId: payload.jobId,
        error: expect.stringContaining("RENDERER_URL http://127.0.0.1:8790 is a loopback address"),
      },
    ]);
  });
});

describe("PUBLIC_BASE_URL outside development", () => {
  it("an empty PUBLIC_BASE_URL in production starts no background work: messages kept, nothing dispatched, one clear line each", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    const renderer = fakeRenderer();
    const errors: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: string) => void errors.push(line));
    const prodEnv = { ...renderer.env, ENVIRONMENT: undefined, PUBLIC_BASE_URL: "" } as Env;

    expect(() => backgroundBaseUrl(prodEnv)).toThrow(/PUBLIC_BASE_URL is empty/);
    const result = await consume(prodEnv, [{ kind: "avatar", jobId }]);
    expect(result.retryBatch).toMatchObject({ retry: true });
    expect(result.explicitAcks).toEqual([]);
    expect(renderer.dispatches).toHaveLength(0);
    const report = await runSweep(prodEnv, Date.now() + 10 * 60_000);
    expect(report).toMatchObject({
      resent: 0,
      redispatched: 0,
      avatarTimedOut: 0,
      errors: [expect.stringMatching(/PUBLIC_BASE_URL is empty/)],
    });
    expect(errors.map((l) => JSON.parse(l))).toEqual([
      {
        event: "public_base_url_missing",
        level: "error",
        work: "queue",
        messages: 1,
        error: expect.stringMatching(/^PUBLIC_BASE_URL is empty/),
      },
      {
        event: "public_base_url_missing",
        level: "error",
        work: "sweep",
        error: expect.stringMatching(/^PUBLIC_BASE_URL is empty/),
      },
    ]);

    // Configured: the same message dispatches with callbacks on the public origin.
    await consume({ ...prodEnv, PUBLIC_BASE_URL: "https://api.example.com/" } as Env, [{ kind: "avatar", jobId }]);
    expect(renderer.dispatches[0].payload.callbackUrl).toMatch(/^https:\/\/api\.example\.com\/internal\/jobs\//);
  });

  it("development keeps the loopback fallback", () => {
    expect(backgroundBaseUrl({ ENVIRONMENT: "development", PUBLIC_BASE_URL: "" })).toBe("http://127.0.0.1:8787");
  });
});

describe("the test env's renderer", () => {
  it("is the stub of vitest.config.ts: dispatches get its 'busy' answer, nothing goes to the network", async () => {
    const payload = { jobId: crypto.randomUUID(), kind: "video", attempt: 1 } as unknown as RendererPayload;
    await expect(dispatchToRenderer(env, payload, 0)).rejects.toThrow(
      "renderer answered 503: busy: the Worker test suite runs no renderer",
    );
    const elsewhere = await fetch("https://example.com/anything");
    expect(elsewhere.status).toBe(502);
    expect(await elsewhere.text()).toBe("no network in the Worker tests: GET https://example.com/anything");
  });
});

describe("logEvent", () => {
  it("writes one JSON line per event with the given fields; errors become their message; undefined fields are dropped", () => {
    const lines: [string, string][] = [];
    for (const m of ["log", "warn", "error"] as const)
      vi.spyOn(console, m).mockImplementation((l: string) => void lines.push([m, l]));
    logEvent("dispatch", { jobId: "j", accountId: "a", attempt: 2, kind: "video", ms: 12, requestId: undefined });
    logEvent("dispatch_unavailable", { jobId: "j", error: new Error("renderer answered 503") }, "warn");
    logEvent("sweep_step_failed", { error: "boom" }, "error");
    expect(lines.map(([m, l]) => [m, JSON.parse(l)])).toEqual([
      ["log", { event: "dispatch", level: "info", jobId: "j", accountId: "a", attempt: 2, kind: "video", ms: 12 }],
      ["warn", { event: "dispatch_unavailable", level: "warn", jobId: "j", error: "renderer answered 503" }],
      ["error", { event: "sweep_step_failed", level: "error", error: "boom" }],
    ]);
  });
});

describe("settings (platform/config.ts)", () => {
  it("are read once per env object; unset or blank takes the default", () => {
    expect(workerConfig({})).toEqual({ REGION: "us-west", RENDERER_INSTANCES: 4, RENDERER_ACCOUNT_SHARE: 0.5 });
    const vars = {
      REGION: "cn-beijing",
      RENDERER_INSTANCES: " ",
      RENDERER_ACCOUNT_SHARE: "0.25",
      STALL_AFTER_SECONDS: "10",
    };
    expect(workerConfig(vars)).toEqual({
      REGION: "cn-beijing",
      RENDERER_INSTANCES: 4,
      RENDERER_ACCOUNT_SHARE: 0.25,
      STALL_AFTER_SECONDS: 10,
    });
    expect(workerConfig(vars)).toBe(workerConfig(vars));
    expect(workerConfig(env)).toEqual({ REGION: "us-west", RENDERER_INSTANCES: 8, RENDERER_ACCOUNT_SHARE: 0.5 });
  });

  it("a bad value is one error naming every bad variable", () => {
    expect(() => workerConfig({ REGION: "mars", RENDERER_INSTANCES: "eight" })).toThrow(
      'invalid configuration: REGION must be one of us-west, ap-northeast, cn-beijing; RENDERER_INSTANCES must be an integer ≥ 1 (got "eight")',
    );
  });

  it("a Worker with a bad setting answers 500 and logs the variable; its queue and cron handlers refuse before any work", async () => {
    const errors: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: string) => void errors.push(line));
    const bad = { ...env, RENDERER_INSTANCES: "0" } as Env;
    const message = 'invalid configuration: RENDERER_INSTANCES must be an integer ≥ 1 (got "0")';
    const res = await worker.fetch(new Request("http://x/health/live"), bad, createExecutionContext());
    expect(res.status).toBe(500);
    expect(errors.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({
        event: "request_failed",
        level: "error",
        path: "/health/live",
        error: `Error: ${message}`,
      }),
    ]);
    const batch = createMessageBatch<JobMessage>("avatar-video-jobs", []);
    await expect(worker.queue(batch, bad, createExecutionContext())).rejects.toThrow(message);
    const controller = { scheduledTime: Date.now(), cron: "* * * * *", noRetry() {} } as ScheduledController;
    expect(() => worker.scheduled(controller, bad, createExecutionContext())).toThrow(message);
  });
});
