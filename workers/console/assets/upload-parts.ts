/**
 * Audio uploads in parts (form[data-upload-form]). The file goes to R2 first (upload-api.ts), then the form
 * is sent with the upload's id. A failed part is retried with backoff (network errors, 429, 5xx); the parts
 * already stored are remembered (localStorage, per file name, size and date), so an interrupted upload
 * resumes where it stopped when the same file is sent again, even after a reload.
 */

/** The type of a file the browser gives none, by its extension (the server checks the bytes). */
const AUDIO_TYPES: Record<string, string> = {
  mp3: "audio/mpeg",
  wav: "audio/wav",
  m4a: "audio/mp4",
  aac: "audio/aac",
  ogg: "audio/ogg",
};

/** An upload in progress, as remembered between attempts. */
interface UploadState {
  uploadId: string;
  partSize: number;
  parts: number;
  /** The answers of the parts stored so far, in order (sent back to /complete). */
  done: unknown[];
}

/** A refused or failed call; `status` is absent when the connection was lost. */
type CallError = Error & { status?: number };

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const retryable = (err: CallError) => !err.status || err.status === 429 || err.status >= 500;

async function withRetry<T>(attempt: () => Promise<T>, tries = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (i >= tries || !retryable(err as CallError)) throw err;
      await pause(400 * 2 ** (i - 1) * (0.75 + Math.random() / 2));
    }
  }
}

function remembered(key: string): UploadState | null {
  try {
    return JSON.parse(localStorage.getItem(key) || "null") as UploadState | null;
  } catch {
    return null;
  }
}

function remember(key: string, value: UploadState | null): void {
  try {
    if (value) localStorage.setItem(key, JSON.stringify(value));
    else localStorage.removeItem(key);
  } catch {
    // private mode
  }
}

/** One call of the console's upload API; answers its JSON or throws a CallError with the server's message. */
async function call<T>(csrf: string, method: string, url: string, body: BodyInit, type: string): Promise<T> {
  const res = await fetch(url, {
    method,
    body,
    credentials: "same-origin",
    headers: { "X-CSRF-Token": csrf, "Content-Type": type },
  });
  const data = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
  if (!res.ok) {
    const message = data.error?.message || `Upload failed (${res.status})`;
    throw Object.assign(new Error(message), { status: res.status });
  }
  return data as T;
}

function enhance(form: HTMLFormElement, csrf: () => string): void {
  const file = form.querySelector<HTMLInputElement>('input[type="file"][name="audio"]');
  const bar = form.querySelector("progress");
  const note = form.querySelector("[data-upload-status]");
  const hidden = form.querySelector<HTMLInputElement>('input[name="audioUploadId"]');
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (!file || !bar || !note || !hidden || !button) return;
  form.addEventListener("submit", async (e) => {
    const f = file.files?.[0];
    if (!f || hidden.value) return;
    e.preventDefault();
    button.disabled = true;
    bar.hidden = false;
    const say = (text: string) => {
      note.textContent = text;
    };
    const api = <T>(method: string, url: string, body: BodyInit, type: string) =>
      withRetry(() => call<T>(csrf(), method, url, body, type));
    const key = `avatar-video-upload:${f.name}:${f.size}:${f.lastModified}`;
    const send = async (state: UploadState) => {
      for (let n = state.done.length + 1; n <= state.parts; n++) {
        const chunk = f.slice((n - 1) * state.partSize, Math.min(f.size, n * state.partSize));
        const path = `/console/api/uploads/${state.uploadId}/parts/${n}`;
        state.done.push(await api<unknown>("PUT", path, chunk, "application/octet-stream"));
        remember(key, state);
        bar.value = Math.round((100 * Math.min(f.size, n * state.partSize)) / f.size);
      }
      const complete = JSON.stringify({ parts: state.done });
      await api("POST", `/console/api/uploads/${state.uploadId}/complete`, complete, "application/json");
      remember(key, null);
      return state.uploadId;
    };
    const fresh = async () => {
      const type = f.type || AUDIO_TYPES[f.name.split(".").pop()?.toLowerCase() ?? ""] || "";
      const started = JSON.stringify({ contentType: type, size: f.size });
      const up = await api<Omit<UploadState, "done">>("POST", "/console/api/uploads", started, "application/json");
      const state: UploadState = { uploadId: up.uploadId, partSize: up.partSize, parts: up.parts, done: [] };
      remember(key, state);
      return send(state);
    };
    try {
      const saved = remembered(key);
      let uploadId: string;
      if (saved && saved.done.length > 0) {
        say(`Resuming the upload of ${f.name} at part ${saved.done.length + 1} of ${saved.parts}…`);
        bar.value = Math.round((100 * saved.done.length) / saved.parts);
        // An upload the server no longer has (finished, expired, swept) starts again from the first part.
        uploadId = await send(saved).catch((err: CallError) => {
          if (retryable(err)) throw err;
          remember(key, null);
          return fresh();
        });
      } else {
        say(`Uploading ${f.name}…`);
        bar.value = 0;
        uploadId = await fresh();
      }
      bar.value = 100;
      say(`Uploaded ${f.name}. Creating the video…`);
      hidden.value = uploadId;
      file.disabled = true; // the bytes are in R2 already: do not send them again
      form.submit();
    } catch (caught) {
      const err = caught as CallError;
      // fetch's own message for a lost connection ("Failed to fetch") means nothing to a person.
      const why = !err.status
        ? "The connection was lost during the upload."
        : err.message.endsWith(".")
          ? err.message
          : `${err.message}.`;
      say(`${why} Send the form again with the same file to resume the upload.`);
      note.setAttribute("role", "alert");
      button.disabled = false;
    }
  });
}

export function uploadParts(csrf: () => string): void {
  for (const form of document.querySelectorAll<HTMLFormElement>("form[data-upload-form]")) enhance(form, csrf);
}
