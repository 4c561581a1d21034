// Starts the local stack in the foreground and prints one ready line (base URL + admin token).
import { ensureDevVars } from "./lib/dev-vars";
import { startStack } from "./lib/stack";

const port = Number(process.env.PORT ?? 8787);
const rendererPort = Number(process.env.RENDERER_PORT ?? 8790);
// RENDERER_INSTANCES=3: three renderer processes (ports 8790–8792), three instances of the Worker's pool.
const rendererInstances = Number(process.env.RENDERER_INSTANCES ?? 1);
const vars = ensureDevVars(".dev.vars");
const stack = await startStack({
  port,
  rendererPort,
  rendererInstances,
  persistTo: process.env.PERSIST_TO ?? ".wrangler/state",
  sourceAllowlist: process.env.SOURCE_ALLOWLIST ?? "",
  vars,
  inheritOutput: true,
});
console.log(`Ready: ${stack.baseUrl}/v1/open (API reference ${stack.baseUrl}/v1/open/docs) — admin token ${vars.ADMIN_TOKEN}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    await stack.stop();
    process.exit(0);
  });
}
