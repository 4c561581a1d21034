import type { AvatarVideoError } from "../errors.js";

export interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Where the CLI writes: results on stdout (JSON with --json), everything else on stderr; keys are masked. */
export class Output {
  constructor(
    private readonly streams: { stdout: Stream; stderr: Stream },
    readonly json: boolean,
    private readonly secrets: string[] = [],
  ) {}

  get stderr(): Stream {
    return this.streams.stderr;
  }

  /** The command's result: `value` as JSON, or the human form (nothing when it is empty). */
  result(value: unknown, human: string): void {
    if (this.json || human) this.write(this.streams.stdout, this.json ? JSON.stringify(value, null, 2) : human);
  }

  /** One error on stderr: a line for people, or `{"error": {…}}` with --json. */
  error(error: { code: string; message: string; status?: number; requestId?: string; jobId?: string }): void {
    if (this.json) {
      this.write(this.streams.stderr, JSON.stringify({ error }));
      return;
    }
    const where = [
      error.status && `HTTP ${error.status}`,
      error.requestId && `request id ${error.requestId}`,
      error.jobId && `job ${error.jobId}`,
    ].filter(Boolean);
    this.write(
      this.streams.stderr,
      `error: ${error.code}: ${error.message}${where.length ? ` (${where.join(", ")})` : ""}`,
    );
  }

  apiError(error: AvatarVideoError): void {
    this.error({ code: error.code, message: error.message, status: error.status, requestId: error.requestId });
  }

  /** Belt and braces: no line leaves with a key in it, whatever put it there. */
  private write(stream: Stream, text: string): void {
    const masked = this.secrets.filter((s) => s.length >= 8).reduce((t, secret) => t.split(secret).join("***"), text);
    stream.write(masked.endsWith("\n") ? masked : `${masked}\n`);
  }
}
