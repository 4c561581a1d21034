import { expect } from "vitest";
import { JobFailure } from "../../../container/src/rules/public";

/** The JobFailure code a promise rejects with, or "ok" when it resolves (anything else fails the test). */
export async function failureCode(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(JobFailure);
    return (e as JobFailure).code;
  }
  return "ok";
}
