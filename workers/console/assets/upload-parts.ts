/**
 * Part of console.js: audio uploads in parts. The file goes to R2 first, then the form is sent with the
 * upload's id. A failed part is retried with backoff (network errors, 429, 5xx); the parts already stored
 * are remembered (localStorage, per file name, size and date), so an interrupted upload resumes where it
 * stopped when the same file is sent again, even after a reload.
 */
export const UPLOAD_PARTS_JS = `
  const AUDIO_TYPES = { mp3: "audio/mpeg", wav: "audio/wav", m4a: "audio/mp4", aac: "audio/aac", ogg: "audio/ogg" };
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  const retryable = (err) => !err.status || err.status === 429 || err.status >= 500;
  const withRetry = async (attempt, tries = 5) => {
    for (let i = 1; ; i++) {
      try { return await attempt(); }
      catch (err) {
        if (i >= tries || !retryable(err)) throw err;
        await pause(400 * 2 ** (i - 1) * (0.75 + Math.random() / 2));
      }
    }
  };
  const remembered = (key) => { try { return JSON.parse(localStorage.getItem(key) || "null"); } catch { return null; } };
  const remember = (key, value) => { try { value ? localStorage.setItem(key, JSON.stringify(value)) : localStorage.removeItem(key); } catch { /* private mode */ } };
  for (const form of document.querySelectorAll("form[data-upload-form]")) {
    const file = form.querySelector('input[type="file"][name="audio"]');
    const bar = form.querySelector("progress");
    const note = form.querySelector("[data-upload-status]");
    const hidden = form.querySelector('input[name="audioUploadId"]');
    form.addEventListener("submit", async (e) => {
      if (!file || !file.files || file.files.length === 0 || hidden.value) return;
      e.preventDefault();
      const f = file.files[0];
      const button = form.querySelector('button[type="submit"]');
      button.disabled = true;
      bar.hidden = false;
      const say = (text) => { note.textContent = text; };
      const call = async (method, url, body, type) => {
        const res = await fetch(url, { method, body, credentials: "same-origin", headers: { "X-CSRF-Token": csrf(), ...(type ? { "Content-Type": type } : {}) } });
        const data = await res.json().catch(() => ({}));
        if (!res.ok) throw Object.assign(new Error((data.error && data.error.message) || "Upload failed (" + res.status + ")"), { status: res.status });
        return data;
      };
      const key = "avatar-video-upload:" + f.name + ":" + f.size + ":" + f.lastModified;
      const send = async (state) => {
        for (let n = state.done.length + 1; n <= state.parts; n++) {
          const chunk = f.slice((n - 1) * state.partSize, Math.min(f.size, n * state.partSize));
          state.done.push(await withRetry(() => call("PUT", "/console/api/uploads/" + state.uploadId + "/parts/" + n, chunk, "application/octet-stream")));
          remember(key, state);
          bar.value = Math.round((100 * Math.min(f.size, n * state.partSize)) / f.size);
        }
        await withRetry(() => call("POST", "/console/api/uploads/" + state.uploadId + "/complete", JSON.stringify({ parts: state.done }), "application/json"));
        remember(key, null);
        return state.uploadId;
      };
      const fresh = async () => {
        const type = f.type || AUDIO_TYPES[f.name.split(".").pop().toLowerCase()] || "";
        const up = await withRetry(() => call("POST", "/console/api/uploads", JSON.stringify({ contentType: type, size: f.size }), "application/json"));
        const state = { uploadId: up.uploadId, partSize: up.partSize, parts: up.parts, done: [] };
        remember(key, state);
        return send(state);
      };
      try {
        const saved = remembered(key);
        let uploadId;
        if (saved && saved.done.length > 0) {
          say("Resuming the upload of " + f.name + " at part " + (saved.done.length + 1) + " of " + saved.parts + "…");
          bar.value = Math.round((100 * saved.done.length) / saved.parts);
          // An upload the server no longer has (finished, expired, swept) starts again from the first part.
          uploadId = await send(saved).catch((err) => { if (retryable(err)) throw err; remember(key, null); return fresh(); });
        } else {
          say("Uploading " + f.name + "…");
          bar.value = 0;
          uploadId = await fresh();
        }
        bar.value = 100;
        say("Uploaded " + f.name + ". Creating the video…");
        hidden.value = uploadId;
        file.disabled = true; // the bytes are in R2 already: do not send them again
        form.submit();
      } catch (err) {
        // fetch's own message for a lost connection ("Failed to fetch") means nothing to a person.
        const why = !err.status ? "The connection was lost during the upload." : err.message.endsWith(".") ? err.message : err.message + ".";
        say(why + " Send the form again with the same file to resume the upload.");
        note.setAttribute("role", "alert");
        button.disabled = false;
      }
    });
  }
`;
