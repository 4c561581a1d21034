import { Container } from "@cloudflare/containers";
import type { Env } from "../env";

/**
 * The renderer as a Cloudflare Container (production adapter of workers/renderer/client.ts). Locally and
 * in tests RENDERER_URL is used instead. Jobs report back over HTTP to the Worker's internal routes.
 */
export class RendererContainer extends Container<Env> {
  defaultPort = 8080;
  // Requests to the container renew activity; a render can run far longer than that without any.
  sleepAfter = "10m";

  constructor(ctx: DurableObjectState<{}>, env: Env) {
    super(ctx, env);
    this.envVars = {
      PORT: "8080",
      RENDERER_TOKEN: env.RENDERER_TOKEN,
      // Production never bypasses the address policy; the variable exists for local stacks.
      SOURCE_ALLOWLIST: env.SOURCE_ALLOWLIST ?? "",
    };
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
