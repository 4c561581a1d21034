// Built by scripts/build-assets.ts from workers/console/assets/console.ts: do not edit, run npm run build:assets.
"use strict";
(() => {
  // workers/console/assets/crop-backgrounds.ts
  var SIXTEEN_NINE = 16 / 9;
  async function cropped(f) {
    const bitmap = await createImageBitmap(f).catch(() => null);
    if (!bitmap) return "keep";
    const { width: w, height: h } = bitmap;
    if (Math.abs(w / h / SIXTEEN_NINE - 1) <= 0.01) return "keep";
    if (!confirm(`This image is ${w}\xD7${h}, not 16:9. Crop it to 16:9 around the centre?`)) return "refused";
    const cw = Math.min(w, Math.round(h * 16 / 9) & ~1);
    const ch = Math.min(h, Math.round(cw * 9 / 16));
    const canvas = document.createElement("canvas");
    canvas.width = cw;
    canvas.height = ch;
    canvas.getContext("2d")?.drawImage(bitmap, (w - cw) / 2, (h - ch) / 2, cw, ch, 0, 0, cw, ch);
    const type = f.type === "image/png" ? "image/png" : "image/jpeg";
    const blob = await new Promise((r) => canvas.toBlob(r, type, 0.92));
    if (!blob) return "keep";
    const name = `${f.name.replace(/\.[^.]*$/, "")}-16x9.${type === "image/png" ? "png" : "jpg"}`;
    return new File([blob], name, { type });
  }
  function cropBackgrounds() {
    for (const input of document.querySelectorAll('input[type="file"][data-sixteen-nine]')) {
      input.addEventListener("change", async () => {
        const f = input.files?.[0];
        if (!f) return;
        const result = await cropped(f);
        if (result === "refused") input.value = "";
        else if (result !== "keep") {
          const dt = new DataTransfer();
          dt.items.add(result);
          input.files = dt.files;
        }
      });
    }
  }

  // workers/console/assets/live-jobs.ts
  var TERMINAL = /* @__PURE__ */ new Set(["succeeded", "failed", "expired"]);
  var POLL_MS = 2e3;
  var byAttribute = (name, value) => `[${name}="${CSS.escape(value)}"]`;
  async function fetchPage(url) {
    const res = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
    return res.ok ? new DOMParser().parseFromString(await res.text(), "text/html") : null;
  }
  async function swapEnded(ids) {
    const doc = await fetchPage(location.href);
    if (!doc) return;
    for (const id of ids) {
      const fresh = doc.querySelector(byAttribute("data-job-id", id));
      const el = document.querySelector(byAttribute("data-job-id", id));
      if (fresh && el) el.replaceWith(document.importNode(fresh, true));
    }
    for (const el of document.querySelectorAll("[data-refresh]")) {
      const fresh = doc.querySelector(byAttribute("data-refresh", el.getAttribute("data-refresh") ?? ""));
      if (fresh) el.replaceWith(document.importNode(fresh, true));
    }
  }
  function update(el, job) {
    const before = el.getAttribute("data-status");
    const status = el.querySelector(".status");
    if (status && status.textContent !== job.status) {
      status.textContent = job.status;
      status.className = `status ${job.status}`;
    }
    const stage = el.querySelector(".stage");
    if (stage && job.stage && stage.textContent !== job.stage) stage.textContent = job.stage;
    el.setAttribute("data-status", job.status);
    return before !== job.status && TERMINAL.has(job.status);
  }
  function poll(list) {
    const url = list.getAttribute("data-poll") ?? "";
    const tick = async () => {
      const items = [...list.querySelectorAll("[data-job-id]")];
      if (!items.some((el) => !TERMINAL.has(el.getAttribute("data-status") ?? ""))) return;
      try {
        const res = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
        if (res.ok) {
          const { jobs } = await res.json();
          const byId = new Map(jobs.map((j) => [j.id, j]));
          const ended = [];
          for (const el of items) {
            const job = byId.get(el.getAttribute("data-job-id") ?? "");
            if (job && update(el, job)) ended.push(job.id);
          }
          if (ended.length > 0) await swapEnded(ended);
        }
      } catch {
      }
      setTimeout(tick, POLL_MS);
    };
    setTimeout(tick, POLL_MS);
  }
  function loadOlder(link) {
    link.addEventListener("click", async (e) => {
      e.preventDefault();
      const list = link.closest("section")?.querySelector("[data-poll]");
      const doc = list && await fetchPage(link.getAttribute("href") ?? "").catch(() => null);
      if (!list || !doc) {
        location.href = link.href;
        return;
      }
      const older = doc.querySelector(byAttribute("data-poll", list.getAttribute("data-poll") ?? ""));
      for (const item of older ? [...older.children] : []) list.append(document.importNode(item, true));
      const next = doc.querySelector("[data-load-older]");
      if (next) link.setAttribute("href", next.getAttribute("href") ?? "");
      else link.parentElement?.remove();
    });
  }
  function liveJobs() {
    for (const list of document.querySelectorAll("[data-poll]")) poll(list);
    for (const link of document.querySelectorAll("[data-load-older]")) loadOlder(link);
  }

  // workers/console/assets/previews.ts
  function previews() {
    for (const img of document.querySelectorAll("img[data-preview-for]")) {
      const input = document.getElementById(img.getAttribute("data-preview-for") ?? "");
      if (!(input instanceof HTMLInputElement)) continue;
      input.addEventListener("change", () => {
        if (img.src) URL.revokeObjectURL(img.src);
        const f = input.files?.[0];
        if (!f) {
          img.hidden = true;
          img.removeAttribute("src");
          return;
        }
        img.src = URL.createObjectURL(f);
        img.hidden = false;
      });
    }
  }

  // workers/console/assets/upload-parts.ts
  var AUDIO_TYPES = {
    mp3: "audio/mpeg",
    wav: "audio/wav",
    m4a: "audio/mp4",
    aac: "audio/aac",
    ogg: "audio/ogg"
  };
  var pause = (ms) => new Promise((r) => setTimeout(r, ms));
  var retryable = (err) => !err.status || err.status === 429 || err.status >= 500;
  async function withRetry(attempt, tries = 5) {
    for (let i = 1; ; i++) {
      try {
        return await attempt();
      } catch (err) {
        if (i >= tries || !retryable(err)) throw err;
        await pause(400 * 2 ** (i - 1) * (0.75 + Math.random() / 2));
      }
    }
  }
  function remembered(key) {
    try {
      return JSON.parse(localStorage.getItem(key) || "null");
    } catch {
      return null;
    }
  }
  function remember(key, value) {
    try {
      if (value) localStorage.setItem(key, JSON.stringify(value));
      else localStorage.removeItem(key);
    } catch {
    }
  }
  async function call(csrf2, method, url, body, type) {
    const res = await fetch(url, {
      method,
      body,
      credentials: "same-origin",
      headers: { "X-CSRF-Token": csrf2, "Content-Type": type }
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      const message = data.error?.message || `Upload failed (${res.status})`;
      throw Object.assign(new Error(message), { status: res.status });
    }
    return data;
  }
  function enhance(form, csrf2) {
    const file = form.querySelector('input[type="file"][name="audio"]');
    const bar = form.querySelector("progress");
    const note = form.querySelector("[data-upload-status]");
    const hidden = form.querySelector('input[name="audioUploadId"]');
    const button = form.querySelector('button[type="submit"]');
    if (!file || !bar || !note || !hidden || !button) return;
    form.addEventListener("submit", async (e) => {
      const f = file.files?.[0];
      if (!f || hidden.value) return;
      e.preventDefault();
      button.disabled = true;
      bar.hidden = false;
      const say = (text) => {
        note.textContent = text;
      };
      const api = (method, url, body, type) => withRetry(() => call(csrf2(), method, url, body, type));
      const key = `avatar-video-upload:${f.name}:${f.size}:${f.lastModified}`;
      const send = async (state) => {
        for (let n = state.done.length + 1; n <= state.parts; n++) {
          const chunk = f.slice((n - 1) * state.partSize, Math.min(f.size, n * state.partSize));
          const path = `/console/api/uploads/${state.uploadId}/parts/${n}`;
          state.done.push(await api("PUT", path, chunk, "application/octet-stream"));
          remember(key, state);
          bar.value = Math.round(100 * Math.min(f.size, n * state.partSize) / f.size);
        }
        const complete = JSON.stringify({ parts: state.done });
        await api("POST", `/console/api/uploads/${state.uploadId}/complete`, complete, "application/json");
        remember(key, null);
        return state.uploadId;
      };
      const fresh = async () => {
        const type = f.type || AUDIO_TYPES[f.name.split(".").pop()?.toLowerCase() ?? ""] || "";
        const started = JSON.stringify({ contentType: type, size: f.size });
        const up = await api("POST", "/console/api/uploads", started, "application/json");
        const state = { uploadId: up.uploadId, partSize: up.partSize, parts: up.parts, done: [] };
        remember(key, state);
        return send(state);
      };
      try {
        const saved = remembered(key);
        let uploadId;
        if (saved && saved.done.length > 0) {
          say(`Resuming the upload of ${f.name} at part ${saved.done.length + 1} of ${saved.parts}\u2026`);
          bar.value = Math.round(100 * saved.done.length / saved.parts);
          uploadId = await send(saved).catch((err) => {
            if (retryable(err)) throw err;
            remember(key, null);
            return fresh();
          });
        } else {
          say(`Uploading ${f.name}\u2026`);
          bar.value = 0;
          uploadId = await fresh();
        }
        bar.value = 100;
        say(`Uploaded ${f.name}. Creating the video\u2026`);
        hidden.value = uploadId;
        file.disabled = true;
        form.submit();
      } catch (caught) {
        const err = caught;
        const why = !err.status ? "The connection was lost during the upload." : err.message.endsWith(".") ? err.message : `${err.message}.`;
        say(`${why} Send the form again with the same file to resume the upload.`);
        note.setAttribute("role", "alert");
        button.disabled = false;
      }
    });
  }
  function uploadParts(csrf2) {
    for (const form of document.querySelectorAll("form[data-upload-form]")) enhance(form, csrf2);
  }

  // workers/console/assets/console.ts
  var csrf = () => document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") || "";
  function dropzones() {
    for (const zone of document.querySelectorAll(".dropzone")) {
      const input = zone.querySelector('input[type="file"]');
      if (!input) continue;
      zone.addEventListener("dragover", (e) => {
        e.preventDefault();
        zone.classList.add("over");
      });
      zone.addEventListener("dragleave", () => zone.classList.remove("over"));
      zone.addEventListener("drop", (e) => {
        e.preventDefault();
        zone.classList.remove("over");
        const files = e.dataTransfer?.files;
        if (!files || files.length === 0) return;
        input.files = files;
        input.dispatchEvent(new Event("change", { bubbles: true }));
      });
    }
  }
  function copyButtons() {
    for (const button of document.querySelectorAll("[data-copy]")) {
      button.addEventListener("click", async () => {
        const text = document.getElementById(button.getAttribute("data-copy") ?? "")?.textContent || "";
        try {
          await navigator.clipboard.writeText(text);
          button.textContent = "Copied";
        } catch {
          button.textContent = "Select and copy";
        }
      });
    }
  }
  function confirmations() {
    for (const form of document.querySelectorAll("form[data-confirm]")) {
      form.addEventListener("submit", (e) => {
        if (!confirm(form.getAttribute("data-confirm") ?? "")) e.preventDefault();
      });
    }
  }
  dropzones();
  liveJobs();
  uploadParts(csrf);
  previews();
  cropBackgrounds();
  copyButtons();
  confirmations();
})();
