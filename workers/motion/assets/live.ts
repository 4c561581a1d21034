/**
 * The /console/live page's script, bundled into /console/live/live.js (scripts/build-assets.ts): load the
 * account's Avatars with a session token from the console session (one per connection), pick an Avatar,
 * talk into the microphone or play a file, and watch the Avatar speak. motion-client is not bundled in: the
 * build points its import at /console/live/motion-client.js, the module the Worker serves (live-page.ts).
 */
import type { Expression } from "@avatar-video/contract";
import { LiveAvatar } from "@avatar-video/motion-client";

/** What POST /console/live/token answers (workers/console/live-routes.ts): the fields read here. */
interface Session {
  sessionToken: string;
  avatars: { id: string; name: string }[];
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const statusLine = $<HTMLDivElement>("status");
const avatarSelect = $<HTMLSelectElement>("avatar");
const canvas = $<HTMLCanvasElement>("avatar-canvas");
const mic = $<HTMLButtonElement>("mic");
const stop = $<HTMLButtonElement>("stop");
const file = $<HTMLInputElement>("file");
const transparent = $<HTMLInputElement>("transparent");
const performanceControls = $<HTMLFieldSetElement>("performance");
const expression = $<HTMLSelectElement>("expression");
const intensity = $<HTMLInputElement>("intensity");
const headMotion = $<HTMLInputElement>("headMotion");

/** The performance the controls show (sent with start, and as a `perform` message whenever one changes). */
const chosenPerformance = () => ({
  expression: expression.value as Expression,
  intensity: Number(intensity.value),
  headMotion: Number(headMotion.value),
});
for (const control of [expression, intensity, headMotion])
  control.addEventListener("change", () => live?.perform(chosenPerformance()));

const status = (text: string, error = false) => {
  statusLine.textContent = text;
  statusLine.className = error ? "error" : "";
};
const failed = (err: unknown) => status((err as Error).message, true);

let live: LiveAvatar | undefined;
/** The console's CSRF token, which every state-changing request of a signed-in page carries. */
const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? "";

async function session(): Promise<Session> {
  const res = await fetch("/console/live/token", { method: "POST", headers: { "X-CSRF-Token": csrf } });
  if (res.status === 401) location.assign("/console/sign-in");
  const body = await res.json();
  if (!res.ok) throw new Error(body.error?.message ?? res.statusText);
  return body as Session;
}

$<HTMLFormElement>("load").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const { avatars } = await session();
    avatarSelect.innerHTML = "";
    for (const a of avatars) avatarSelect.append(new Option(`${a.name} · ${a.id.slice(0, 8)}`, a.id));
    if (!avatars.length) avatarSelect.append(new Option("No Avatars in this account yet", ""));
    const ok = avatars.length > 0;
    for (const control of [avatarSelect, mic, file, transparent, performanceControls]) control.disabled = !ok;
    status(ok ? "Pick an Avatar, then talk or play a file." : "This account has no Avatars yet.");
  } catch (err) {
    failed(err);
  }
});

async function connect(): Promise<LiveAvatar> {
  live?.close();
  const { sessionToken } = await session();
  let last = performance.now();
  let count = 0;
  canvas.classList.toggle("transparent", transparent.checked);
  live = await LiveAvatar.connect({
    serviceUrl: location.origin,
    token: sessionToken,
    avatarId: avatarSelect.value,
    canvas,
    transparent: transparent.checked,
    performance: chosenPerformance(),
    onStatus: (s) => {
      if (s.state === "closed") {
        status(s.code === 1000 ? "Done." : `Closed: ${s.code} ${s.reason}`, s.code !== 1000);
        stop.disabled = true;
      } else if (s.state === "error") status(s.message, true);
      else if (s.state === "streaming") status("Live: the Avatar follows the audio.");
    },
    onFrame: (f) => {
      count++;
      const now = performance.now();
      if (now - last > 1000) {
        const fps = ((count * 1000) / (now - last)).toFixed(1);
        $("stats").textContent = `frame ${f.frame} · ${fps} fps · mouth ${f.mouthOpen.toFixed(2)}`;
        last = now;
        count = 0;
      }
    },
  });
  stop.disabled = false;
  return live;
}

mic.addEventListener("click", async () => {
  try {
    await (await connect()).startMicrophone();
  } catch (err) {
    failed(err);
  }
});
file.addEventListener("change", async () => {
  const chosen = file.files?.[0];
  if (!chosen) return;
  try {
    await (await connect()).playFile(chosen);
  } catch (err) {
    failed(err);
  }
});
stop.addEventListener("click", () => live?.stop());
/** The page's LiveAvatar, for the browser tests (test/e2e/motion-live.test.ts). */
(window as unknown as { __live: () => LiveAvatar | undefined }).__live = () => live;
