// Starts the local stack in the foreground and prints one ready line (base URL + admin token), then which
// ffmpeg renders and where the demo media are (a portrait and a voice for the README's first calls; this machine only).
import { allowlistWithDemo, DEMO_MEDIA_PORT, startDemoMedia } from "./lib/demo-media";
import { ensureDevVars } from "./lib/dev-vars";
import { rendererFfmpeg } from "./lib/renderer-ffmpeg";
import { startStack } from "./lib/stack";

const port = Number(process.env.PORT ?? 8787);
const rendererPort = Number(process.env.RENDERER_PORT ?? 8790);
// RENDERER_INSTANCES=3: three renderer processes (ports 8790–8792), three instances of the Worker's pool.
const rendererInstances = Number(process.env.RENDERER_INSTANCES ?? 1);
const vars = ensureDevVars(".dev.vars");
const demo = await startDemoMedia(Number(process.env.DEMO_MEDIA_PORT ?? DEMO_MEDIA_PORT));
const stack = await startStack({
  port,
  rendererPort,
  rendererInstances,
  persistTo: process.env.PERSIST_TO ?? ".wrangler/state",
  sourceAllowlist: allowlistWithDemo(process.env.SOURCE_ALLOWLIST, demo.origin),
  vars,
  inheritOutput: true,
});
console.log(
  `Ready: ${stack.baseUrl}/v1/open (API reference ${stack.baseUrl}/v1/open/docs) — admin token ${vars.ADMIN_TOKEN}`,
);
console.log(await rendererFfmpeg(stack.rendererUrl));
console.log(`Demo media: ${demo.origin}/portrait.jpg and ${demo.origin}/voice.wav`);
// SIGHUP too (the terminal closed): the renderer and wrangler run in process groups of their own.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, async () => {
    demo.server.close();
    await stack.stop();
    process.exit(0);
  });
}
