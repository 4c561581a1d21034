/** The renderer's log lines: JSON with `event` (snake_case), never a signed URL's query or an Error's stack. */
import { describe, expect, it } from "vitest";
import { createLogger, logEvent } from "../../container/src/io/public";

describe("renderer log lines", () => {
  it("one JSON object per event, with time, level, event and the bound fields", () => {
    const lines: string[] = [];
    const log = createLogger({ service: "renderer" }, (l) => lines.push(l)).child({ jobId: "j1" });
    log.info("job_started", { attempt: 2, skipped: undefined });
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({ level: "info", event: "job_started", service: "renderer", jobId: "j1", attempt: 2 });
    expect(entry).not.toHaveProperty("msg");
    expect(entry).not.toHaveProperty("skipped");
    expect(Number.isNaN(Date.parse(entry.time))).toBe(false);
  });

  it("redacts query strings and credentials from text fields and errors", () => {
    const lines: string[] = [];
    const log = createLogger({}, (l) => lines.push(l));
    log.warn("object_transfer_retry", {
      note: "GET https://u:p@host/a?sig=secret failed",
      error: new Error("at https://h/b?token=t"),
    });
    expect(lines[0]).not.toMatch(/secret|token=t|u:p@/);
    expect(JSON.parse(lines[0])).toMatchObject({
      event: "object_transfer_retry",
      level: "warn",
      note: "GET https://host/a failed",
    });
  });

  it("drops events below the minimum level; logEvent writes one line", () => {
    const lines: string[] = [];
    createLogger({}, (l) => lines.push(l), "warn").info("ignored");
    expect(lines).toEqual([]);
    logEvent("renderer_listening", { port: 1 }, "info", (l) => lines.push(l));
    expect(JSON.parse(lines[0])).toMatchObject({ event: "renderer_listening", port: 1 });
  });
});
