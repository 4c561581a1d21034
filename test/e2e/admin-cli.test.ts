import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { baseUrl } from "./helpers";

// The operator CLI (scripts/admin.ts) against the e2e stack: help for every command, JSON answers, jobs --active.
const run = promisify(execFile);
const admin = (...args: string[]) =>
  run("node_modules/.bin/tsx", ["scripts/admin.ts", ...args, "--base-url", baseUrl, "--token", inject("adminToken")], {
    env: { ...process.env, NO_COLOR: "1" },
  });

describe("npm run admin", () => {
  it("--help lists every command; each command has its own --help", async () => {
    const { stdout } = await admin("--help");
    const commands = [
      "create-account",
      "get-account",
      "set-flags",
      "set-limits",
      "grant-units",
      "set-units",
      "create-app",
      "list-apps",
      "revoke-app",
      "avatar-access",
      "reconcile",
      "invite-user",
      "jobs",
    ];
    for (const c of commands) expect(stdout).toContain(c);
    expect((await admin("jobs", "--help")).stdout).toMatch(/--active[\s\S]*--limit[\s\S]*--json/);
  });

  it("create-account prints the JSON answer; a usage mistake exits 1 with the command's usage", async () => {
    const { stdout } = await admin("create-account", "--name", "CLI test", "--units", "3", "--enable-all");
    const { account } = JSON.parse(stdout);
    expect(account).toMatchObject({
      name: "CLI test",
      avatarUnits: 3,
      openApiAccess: true,
      videoCreationEnabled: true,
    });
    const err = await admin("grant-units", account.id, "x").catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stderr).toMatch(/^N must be an integer\n\n[\s\S]*grant-units/);
  });

  it("jobs --active prints a table with age, attempt, stage and heartbeat; --json the API answer (the route itself: admin.test.ts)", async () => {
    const lines = (await admin("jobs", "--active")).stdout.trimEnd().split("\n");
    const { jobs, now } = JSON.parse((await admin("jobs", "--active", "--json")).stdout);
    expect(lines[0]).toMatch(/^KIND\s+JOB\s+ACCOUNT\s+STATUS\s+STAGE\s+ATTEMPT\s+AGE\s+HEARTBEAT$/);
    expect(lines.at(-1)).toMatch(/^\d+ active jobs? at \d{4}-\d\d-\d\dT/);
    expect(Array.isArray(jobs)).toBe(true);
    expect(Date.parse(now)).toBeGreaterThan(0);
    const err = await admin("jobs").catch((e) => e);
    expect(err.code).toBe(1);
  });
});
