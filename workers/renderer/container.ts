import { Container } from "@cloudflare/containers";

/** The renderer as a Cloudflare Container (production adapter). Locally RENDERER_URL is used instead. */
export class RendererContainer extends Container {
  defaultPort = 8080;
  // Jobs report back over HTTP; an idle instance may sleep between jobs.
  sleepAfter = "10m";
}
