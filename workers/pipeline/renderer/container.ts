import { Container, type StopParams } from "@cloudflare/containers";
import type { Env } from "../../platform/env";
import { logEvent } from "../../platform/logging/log-event";

/**
 * The renderer as a Cloudflare Container (production adapter of workers/pipeline/renderer/client.ts). Locally and
 * in tests RENDERER_URL is used instead. Jobs report back over HTTP to the Worker's internal routes.
 *
 * A dead container (crash, out of memory, host loss) is replaced the same way as a dead local renderer
 * (docs/operations.md): its runs stop beating, the sweep sends their jobs to the queue again, and the
 * consumer's dispatch reaches this Durable Object, whose `fetch` starts a fresh container before
 * forwarding. The lifecycle hooks below only log; recovery never depends on them having run.
 */
export class RendererContainer extends Container<Env> {
  defaultPort = 8080;
  // Requests to the container renew activity; a render can run far longer than that without any.
  sleepAfter = "10m";

  constructor(ctx: ConstructorParameters<typeof Container>[0], env: Env) {
    super(ctx, env);
    this.envVars = {
      PORT: "8080",
      RENDERER_TOKEN: env.RENDERER_TOKEN,
      // Production never bypasses the address policy; the variable exists for local stacks.
      SOURCE_ALLOWLIST: env.SOURCE_ALLOWLIST ?? "",
    };
  }

  private get instanceName(): string {
    return this.ctx.id.name ?? this.ctx.id.toString();
  }

  override onStart(): void {
    logEvent("renderer_container_started", { instance: this.instanceName });
  }

  /** exitCode 0 after a sleep or a deploy; anything else is a crash (137: killed, e.g. out of memory). */
  override onStop({ exitCode, reason }: StopParams): void {
    const crashed = exitCode !== 0;
    logEvent(
      "renderer_container_stopped",
      { instance: this.instanceName, exitCode, reason, crashed },
      crashed ? "warn" : "info",
    );
  }

  /** A start that failed (image, port never opened). Rethrown: the dispatch fails and is retried. */
  override onError(error: unknown): never {
    logEvent("renderer_container_error", { instance: this.instanceName, error }, "warn");
    throw error;
  }

  /** Sleep only when idle: the renderer's GET /health says how many jobs it runs or holds waiting. */
  override async onActivityExpired(): Promise<void> {
    try {
      const res = await this.containerFetch("http://renderer/health");
      const body = (await res.json()) as { activeJobs?: number; waitingJobs?: number };
      if (res.ok && (body.activeJobs ?? 0) + (body.waitingJobs ?? 0) > 0) return; // the base class renews the timeout
    } catch {
      // unreachable: nothing can be running
    }
    await super.onActivityExpired();
  }
}
