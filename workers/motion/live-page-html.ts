/**
 * The /console/live page: enter an App ID + API key (sent only to this server, which mints a one-connection
 * session token), pick an Avatar, talk into the microphone or play a file, and watch the Avatar speak.
 * Style and script are served beside it (no inline code: the page has the console's strict CSP).
 */
export const LIVE_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Live Avatar</title>
<link rel="stylesheet" href="/console/live/live.css">
</head>
<body>
<header>Avatar Video · Live Avatar</header>
<main>
  <section>
    <h2>1. Your App</h2>
    <form id="credentials">
      <label for="appId">App ID</label>
      <input id="appId" type="text" autocomplete="off" spellcheck="false" required>
      <label for="apiKey">API key</label>
      <input id="apiKey" type="password" autocomplete="off" required>
      <button type="submit">Load Avatars</button>
    </form>
    <p class="note">The key goes only to this server, which mints a short-lived session token for each connection. Never put an API key into a web page or app you ship.</p>
    <h2 class="later">2. Speak</h2>
    <label for="avatar">Avatar</label>
    <select id="avatar" disabled><option value="">Load your Avatars first</option></select>
    <label class="check"><input id="transparent" type="checkbox" disabled> Transparent background (the person alone over the page)</label>
    <div class="row">
      <button id="mic" type="button" disabled>Talk into the microphone</button>
      <button id="stop" type="button" class="secondary" disabled>Stop</button>
    </div>
    <label for="file">Play an audio file</label>
    <input id="file" type="file" accept="audio/*" disabled>
  </section>
  <section class="stage">
    <canvas id="avatar-canvas" width="512" height="512" aria-label="Live Avatar"></canvas>
    <div id="status" role="status">Enter your App ID and API key.</div>
    <div id="stats"></div>
  </section>
</main>
<script type="module" src="/console/live/live.js"></script>
</body>
</html>
`;

export const LIVE_PAGE_CSS = `  :root { font-family: system-ui, sans-serif; color: #1d2230; background: #f4f5f8; }
  body { margin: 0; }
  header { background: #1d2230; color: #fff; padding: 14px 24px; font-weight: 600; letter-spacing: .2px; }
  main { display: grid; grid-template-columns: 340px 1fr; gap: 24px; padding: 24px; max-width: 1100px; }
  section { background: #fff; border-radius: 10px; padding: 18px; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
  h2 { font-size: 15px; margin: 0 0 12px; }
  label { display: block; font-size: 13px; margin: 10px 0 4px; color: #4a5163; }
  input, select, button { font: inherit; font-size: 14px; }
  input[type=text], input[type=password], select { width: 100%; box-sizing: border-box; padding: 7px 9px; border: 1px solid #c9ceda; border-radius: 6px; }
  button { margin-top: 12px; padding: 8px 12px; border: 0; border-radius: 6px; background: #3355dd; color: #fff; cursor: pointer; }
  button.secondary { background: #e6e9f2; color: #1d2230; }
  button:disabled { opacity: .45; cursor: default; }
  .row { display: flex; gap: 8px; flex-wrap: wrap; }
  .note { font-size: 12px; color: #6a7285; margin-top: 10px; line-height: 1.4; }
  .stage { display: flex; flex-direction: column; align-items: center; }
  canvas { width: min(100%, 520px); aspect-ratio: 1; background: #dfe2ea; border-radius: 10px; }
  canvas.transparent { background: repeating-conic-gradient(#cfd5dc 0 25%, #eef0f4 0 50%) 0 0 / 24px 24px; }
  label.check { display: flex; gap: 6px; align-items: center; }
  #status { margin-top: 12px; font-size: 14px; min-height: 20px; }
  #status.error { color: #b3261e; }
  #stats { font-size: 12px; color: #6a7285; font-variant-numeric: tabular-nums; }
  h2.later { margin-top: 18px; }
`;

export const LIVE_PAGE_JS = `import { LiveAvatar } from "/console/live/motion-client.js";
const $ = (id) => document.getElementById(id);
const status = (text, error = false) => { $("status").textContent = text; $("status").className = error ? "error" : ""; };
let live;
let creds;
const headers = () => ({ "X-App-ID": creds.appId, "X-API-Key": creds.apiKey });

async function session() {
  const res = await fetch("/console/live/session", { method: "POST", headers: headers() });
  const body = await res.json();
  if (!res.ok) throw new Error(body.error?.message ?? res.statusText);
  return body;
}

$("credentials").addEventListener("submit", async (e) => {
  e.preventDefault();
  creds = { appId: $("appId").value.trim(), apiKey: $("apiKey").value.trim() };
  try {
    const { avatars } = await session();
    const sel = $("avatar");
    sel.innerHTML = "";
    for (const a of avatars) sel.append(new Option(a.name + " · " + a.id.slice(0, 8), a.id));
    if (!avatars.length) sel.append(new Option("No Avatars in this account yet", ""));
    const ok = avatars.length > 0;
    sel.disabled = !ok; $("mic").disabled = !ok; $("file").disabled = !ok; $("transparent").disabled = !ok;
    status(ok ? "Pick an Avatar, then talk or play a file." : "This account has no Avatars yet.");
  } catch (err) { status(err.message, true); }
});

async function connect() {
  live?.close();
  const { sessionToken } = await session();
  let last = performance.now(), count = 0;
  const transparent = $("transparent").checked;
  $("avatar-canvas").classList.toggle("transparent", transparent);
  live = await LiveAvatar.connect({
    serviceUrl: location.origin,
    token: sessionToken,
    avatarId: $("avatar").value,
    canvas: $("avatar-canvas"),
    transparent,
    onStatus: (s) => {
      if (s.state === "closed") { status(s.code === 1000 ? "Done." : "Closed: " + s.code + " " + s.reason, s.code !== 1000); $("stop").disabled = true; }
      else if (s.state === "error") status(s.message, true);
      else if (s.state === "streaming") status("Live: the Avatar follows the audio.");
    },
    onFrame: (f) => {
      count++;
      const now = performance.now();
      if (now - last > 1000) { $("stats").textContent = "frame " + f.frame + " · " + (count * 1000 / (now - last)).toFixed(1) + " fps · mouth " + f.mouthOpen.toFixed(2); last = now; count = 0; }
    },
  });
  $("stop").disabled = false;
  return live;
}

$("mic").addEventListener("click", async () => {
  try { await (await connect()).startMicrophone(); } catch (err) { status(err.message, true); }
});
$("file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  try { await (await connect()).playFile(file); } catch (err) { status(err.message, true); }
});
$("stop").addEventListener("click", () => live?.stop());
window.__live = () => live;
`;
