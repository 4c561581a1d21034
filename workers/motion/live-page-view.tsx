import { EXPRESSIONS, PERFORMANCE_DEFAULTS } from "@avatar-video/contract";
import { html } from "hono/html";

/** Who the page is for: the signed-in console person, and the token their page's requests carry (CSRF). */
export interface LivePageProps {
  csrf: string;
  email: string;
  accountName: string;
}

/**
 * The /console/live page, for a person signed in to the console: load the account's Avatars, pick one and how it
 * performs, talk into the microphone or play a file, and watch the Avatar speak. Its session tokens come from the
 * console session (POST /console/live/token): no API key is ever typed into the page; backends mint theirs
 * with their App key. Its script and style sheet are static assets (assets/live.ts, assets/live.css): no inline
 * code, so the page has the console's strict CSP.
 */
function LivePage(props: LivePageProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="csrf-token" content={props.csrf} />
        <title>Live Avatar</title>
        <link rel="stylesheet" href="/console/live/live.css" />
      </head>
      <body>
        <header>
          Avatar Video · Live Avatar · <span title={props.email}>{props.accountName}</span> ·{" "}
          <a href="/console/avatars">Console</a>
        </header>
        <main>
          <section>
            <h2>1. Your Avatars</h2>
            <form id="load">
              <button type="submit">Load Avatars</button>
            </form>
            <p class="note">
              Each connection gets a short-lived session token from your console session. Your backend mints its own
              with its App key (POST /v1/console/session-tokens); never put an API key into a web page.
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
              Load your Avatars.
            </div>
            <div id="stats"></div>
          </section>
        </main>
        <script type="module" src="/console/live/live.js"></script>
      </body>
    </html>
  );
}

export const livePageHtml = (props: LivePageProps) => html`<!doctype html>${<LivePage {...props} />}`;
