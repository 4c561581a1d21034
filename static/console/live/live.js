// Built by scripts/build-assets.ts from workers/motion/assets/live.ts: do not edit, run npm run build:assets.
// workers/motion/assets/live.ts
import { LiveAvatar } from "/console/live/motion-client.js";
var $ = (id) => document.getElementById(id);
var statusLine = $("status");
var avatarSelect = $("avatar");
var canvas = $("avatar-canvas");
var mic = $("mic");
var stop = $("stop");
var file = $("file");
var transparent = $("transparent");
var performanceControls = $("performance");
var expression = $("expression");
var intensity = $("intensity");
var headMotion = $("headMotion");
var chosenPerformance = () => ({
  expression: expression.value,
  intensity: Number(intensity.value),
  headMotion: Number(headMotion.value)
});
for (const control of [expression, intensity, headMotion])
  control.addEventListener("change", () => live?.perform(chosenPerformance()));
var status = (text, error = false) => {
  statusLine.textContent = text;
  statusLine.className = error ? "error" : "";
};
var failed = (err) => status(err.message, true);
var live;
var csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? "";
async function session() {
  const res = await fetch("/console/live/token", { method: "POST", headers: { "X-CSRF-Token": csrf } });
  if (res.status === 401) location.assign("/console/sign-in");
  const body = await res.json();
  if (!res.ok) throw new Error(body.error?.message ?? res.statusText);
  return body;
}
$("load").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const { avatars } = await session();
    avatarSelect.innerHTML = "";
    for (const a of avatars) avatarSelect.append(new Option(`${a.name} \xB7 ${a.id.slice(0, 8)}`, a.id));
    if (!avatars.length) avatarSelect.append(new Option("No Avatars in this account yet", ""));
    const ok = avatars.length > 0;
    for (const control of [avatarSelect, mic, file, transparent, performanceControls]) control.disabled = !ok;
    status(ok ? "Pick an Avatar, then talk or play a file." : "This account has no Avatars yet.");
  } catch (err) {
    failed(err);
  }
});
async function connect() {
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
        status(s.code === 1e3 ? "Done." : `Closed: ${s.code} ${s.reason}`, s.code !== 1e3);
        stop.disabled = true;
      } else if (s.state === "error") status(s.message, true);
      else if (s.state === "streaming") status("Live: the Avatar follows the audio.");
    },
    onFrame: (f) => {
      count++;
      const now = performance.now();
      if (now - last > 1e3) {
        const fps = (count * 1e3 / (now - last)).toFixed(1);
        $("stats").textContent = `frame ${f.frame} \xB7 ${fps} fps \xB7 mouth ${f.mouthOpen.toFixed(2)}`;
        last = now;
        count = 0;
      }
    }
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
window.__live = () => live;
