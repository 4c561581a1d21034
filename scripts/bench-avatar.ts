// npm run bench:avatar — median time from POST /avatars to `succeeded` for a 2-megapixel portrait on a
// local stack (started here on its own ports), and the share of it spent in face analysis.
// A benchmark prints figures; it asserts nothing.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import sharp from "sharp";
import { fixture } from "../test/fixtures/portraits/derive";
import { startMediaServer } from "../test/e2e/media-server";
import { ensureDevVars } from "./lib/dev-vars";
import { startStack } from "./lib/stack";

const RUNS = Number(process.env.RUNS ?? 9);
const [PORT, RENDERER_PORT, MEDIA_PORT] = [8817, 8818, 8816];
const mediaDir = ".local/bench-media";
const state = ".local/bench-state";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// A ~2-megapixel portrait (1240×1640) made from a real photo.
rmSync(state, { recursive: true, force: true });
mkdirSync(mediaDir, { recursive: true });
const portrait = await sharp(fixture("single-camera"))
  .resize(1240, 1640, { fit: "cover" })
  .jpeg({ quality: 92 })
  .toBuffer();
writeFileSync(`${mediaDir}/portrait-2mp.jpg`, portrait);

const faceMsByJob = new Map<string, number>();
const vars = ensureDevVars(".dev.vars");
const media = await startMediaServer(mediaDir, MEDIA_PORT);
const stack = await startStack({
  port: PORT,
  rendererPort: RENDERER_PORT,
  persistTo: state,
  sourceAllowlist: `127.0.0.1:${MEDIA_PORT}`,
  vars,
  onRendererLog: (line) => {
    try {
      const entry = JSON.parse(line);
      if (entry.event === "job_succeeded" && entry.timings)
        faceMsByJob.set(entry.jobId, entry.timings["preprocess.faceMs"] ?? 0);
    } catch {
      /* not a JSON line */
    }
  },
});

try {
  const admin = <T>(path: string, body: unknown) =>
    fetch(`${stack.baseUrl}/v1/admin${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${vars.ADMIN_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<T>);
  const { account } = await admin<{ account: { id: string } }>("/accounts", {
    name: "bench",
    openApiAccess: true,
    avatarCreationEnabled: true,
    avatarUnits: RUNS + 1,
  });
  const { app, apiKey } = await admin<{ app: { id: string }; apiKey: string }>(`/accounts/${account.id}/apps`, {
    name: "bench",
  });
  const headers = { "X-App-ID": app.id, "X-API-Key": apiKey, "Content-Type": "application/json" };
  const imageUrl = `http://127.0.0.1:${MEDIA_PORT}/files/portrait-2mp.jpg`;

  const totals: number[] = [];
  const shares: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const t0 = performance.now();
    const { jobId } = (await (
      await fetch(`${stack.baseUrl}/v1/open/avatars`, { method: "POST", headers, body: JSON.stringify({ imageUrl }) })
    ).json()) as { jobId: string };
    let status = "queued";
    while (status === "queued" || status === "processing") {
      await new Promise((r) => setTimeout(r, 25));
      const detail = (await (await fetch(`${stack.baseUrl}/v1/open/avatar-jobs/${jobId}`, { headers })).json()) as {
        job: { status: string };
      };
      status = detail.job.status;
    }
    const ms = performance.now() - t0;
    if (status !== "succeeded") throw new Error(`job ${jobId} ended ${status}`);
    if (i === 0) continue; // the first run includes the renderer's model warm-up
    totals.push(ms);
    shares.push((faceMsByJob.get(jobId) ?? 0) / ms);
  }
  console.log(`Avatar creation, 1240×1640 (2.0 MP) JPEG, ${RUNS} runs after one warm-up:`);
  console.log(
    `  median POST /avatars → succeeded: ${median(totals).toFixed(0)} ms (min ${Math.min(...totals).toFixed(0)}, max ${Math.max(...totals).toFixed(0)})`,
  );
  console.log(`  share spent in face analysis:     ${(median(shares) * 100).toFixed(1)} % (median of per-job shares)`);
  console.log(
    "  (the rest: queue delivery, download, decode, crop/encode, uploads to R2, D1 updates, polling granularity 25 ms)",
  );
} finally {
  await stack.stop();
  media.close();
}
