/**
 * Protocol `motion.v1` (docs/motion.md): what a client may send, in which order, and the close codes for
 * everything else. Pure functions: the connection object applies the verdicts.
 */
import { normalizePerformance, type Performance, PerformanceInput, PerformChange } from "@avatar-video/contract";
import type { z } from "zod";
import { formatPath } from "../platform/http/validation";
export const MOTION_PROTOCOL = "motion.v1";
export const MAX_MESSAGE_BYTES = 64 * 1024;
export const MIN_SAMPLE_RATE = 8_000;
export const MAX_SAMPLE_RATE = 48_000;

/** WebSocket close codes (RFC 6455 §7.4.1). */
export const CLOSE = {
  normal: 1000,
  unsupportedData: 1003,
  policy: 1008,
  tooBig: 1009,
  internal: 1011,
  restart: 1012,
} as const;

export type Phase = "waiting" | "streaming" | "stopped";

/** A `perform` message's change (contract PerformChange): what it leaves out stays as it is. */
export type PerformDirection = z.output<typeof PerformChange>;

export type Verdict =
  | { kind: "start"; sampleRate: number; performance?: Performance }
  | { kind: "perform"; change: PerformDirection }
  | { kind: "audio"; bytes: Uint8Array }
  | { kind: "stop" }
  | { kind: "close"; code: number; reason: string };

const close = (code: number, reason: string): Verdict => ({ kind: "close", code, reason: reason.slice(0, 120) });

/** Judge one client message in the connection's phase. */
export function judgeMessage(message: string | ArrayBuffer, phase: Phase): Verdict {
  const size = typeof message === "string" ? new TextEncoder().encode(message).byteLength : message.byteLength;
  if (size > MAX_MESSAGE_BYTES) return close(CLOSE.tooBig, `message of ${size} bytes is over the 65536-byte limit`);
  if (typeof message !== "string") {
    if (phase === "waiting") return close(CLOSE.policy, 'audio before {"type":"start"}');
    if (phase === "stopped") return close(CLOSE.policy, 'audio after {"type":"stop"}');
    return { kind: "audio", bytes: new Uint8Array(message) };
  }
  let msg: unknown;
  try {
    msg = JSON.parse(message);
  } catch {
    return close(CLOSE.unsupportedData, "text messages must be JSON");
  }
  if (typeof msg !== "object" || msg === null || Array.isArray(msg))
    return close(CLOSE.unsupportedData, "a message must be a JSON object with a type");
  const { type } = msg as { type?: unknown };
  if (type === "start") {
    if (phase !== "waiting") return close(CLOSE.policy, "start was already sent");
    const extra = Object.keys(msg).filter((k) => k !== "type" && k !== "sampleRate" && k !== "performance");
    if (extra.length) return close(CLOSE.unsupportedData, `start: ${extra[0]} is not a known field`);
    const rate = (msg as { sampleRate?: unknown }).sampleRate;
    if (!Number.isInteger(rate) || (rate as number) < MIN_SAMPLE_RATE || (rate as number) > MAX_SAMPLE_RATE) {
      return close(
        CLOSE.unsupportedData,
        `start: sampleRate must be an integer from ${MIN_SAMPLE_RATE} to ${MAX_SAMPLE_RATE}`,
      );
    }
    const given = (msg as { performance?: unknown }).performance;
    if (given === undefined) return { kind: "start", sampleRate: rate as number };
    const parsed = PerformanceInput.safeParse(given);
    if (!parsed.success) return close(CLOSE.unsupportedData, `start: ${rule(parsed.error, "performance")}`);
    return { kind: "start", sampleRate: rate as number, performance: normalizePerformance(parsed.data) };
  }
  if (type === "perform") {
    if (phase === "waiting") return close(CLOSE.policy, "perform before start (start may carry a performance)");
    if (phase === "stopped") return close(CLOSE.policy, "perform after stop");
    const { type: _type, ...fields } = msg as Record<string, unknown>;
    const parsed = PerformChange.safeParse(fields);
    if (!parsed.success) return close(CLOSE.unsupportedData, `perform: ${rule(parsed.error)}`);
    return { kind: "perform", change: parsed.data };
  }
  if (type === "stop") {
    if (phase === "waiting") return close(CLOSE.policy, "stop before start");
    if (phase === "stopped") return close(CLOSE.policy, "stop was already sent");
    return { kind: "stop" };
  }
  return close(
    CLOSE.unsupportedData,
    `unknown message type ${JSON.stringify(type)?.slice(0, 40) ?? "(none)"}: expected start, perform or stop`,
  );
}

/** The first problem as `field rule` (the field's path under `prefix`), as the API words it. */
function rule(error: z.ZodError, prefix?: string): string {
  const issue = error.issues[0];
  const keys = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]] : issue.path;
  const path = formatPath(prefix ? [prefix, ...keys] : keys);
  if (issue.code === "unrecognized_keys") return `${path} is not a known field`;
  return path ? `${path} ${issue.message}` : issue.message;
}
