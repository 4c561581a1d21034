import { EXPRESSIONS, PERFORMANCE_DEFAULTS } from "@avatar-video/contract";
import { html } from "hono/html";

/**
 * The /console/live page: enter an App ID + API key (sent only to this server, which mints a one-connection
 * session token), pick an Avatar and how it performs, talk into the microphone or play a file, and watch the
 * Avatar speak. Its
 * script and style sheet are static assets (assets/live.ts, assets/live.css): no inline code, so the page
 * has the console's strict CSP.
 */
function LivePage() {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Live Avatar</title>
        <link rel="stylesheet" href="/console/live/live.css" />
      </head>
      <body>
        <header>Avatar Video · Live Avatar</header>
        <main>
          <section>
            <h2>1. Your App</h2>
            <form id="credentials">
              <label for="appId">App ID</label>
              <input id="appId" type="text" autocomplete="off" spellcheck={false} required />
              <label for="apiKey">API key</label>
              <input id="apiKey" type="password" autocomplete="off" required />
              <button type="submit">Load Avatars</button>
            </form>
            <p class="note">
              The key goes only to this server, which mints a short-lived session token for each connection. Never put
              an API key into a web page or app you ship.
            </p>
            <h2 class="later">2. Speak</h2>
            <label for="avatar">Avatar</label>
            <select id="avatar" disabled>
              <option value="">Load your Avatars first</option>
            </select>
            <label class="check">
              <input id="transparent" type="checkbox" disabled /> Transparent background (the person alone over the
              page)
            </label>
            <fieldset id="performance" disabled>
              <legend>Performance (changes while live, eased in)</legend>
              <label for="expression">Expression</label>
              <select id="expression">
                {EXPRESSIONS.map((v) => (
                  <option value={v} selected={v === PERFORMANCE_DEFAULTS.expression}>
                    {v}
                  </option>
                ))}
              </select>
              <label for="intensity">Intensity</label>
              <input
                id="intensity"
                type="range"
                min="0"
                max="1"
                step="0.05"
                value={String(PERFORMANCE_DEFAULTS.intensity)}
              />
              <label for="headMotion">Head motion (0 still, 1 calm, 3 lively)</label>
              <input
                id="headMotion"
                type="range"
                min="0"
                max="3"
                step="0.25"
                value={String(PERFORMANCE_DEFAULTS.headMotion)}
              />
            </fieldset>
            <div class="row">
              <button id="mic" type="button" disabled>
                Talk into the microphone
              </button>
              <button id="stop" type="button" class="secondary" disabled>
                Stop
              </button>
            </div>
            <label for="file">Play an audio file</label>
            <input id="file" type="file" accept="audio/*" disabled />
          </section>
          <section class="stage">
            <canvas id="avatar-canvas" width="512" height="512" aria-label="Live Avatar"></canvas>
            <div id="status" role="status">
              Enter your App ID and API key.
            </div>
            <div id="stats"></div>
          </section>
        </main>
        <script type="module" src="/console/live/live.js"></script>
      </body>
    </html>
  );
}

export const livePageHtml = () => html`<!doctype html>${<LivePage />}`;
