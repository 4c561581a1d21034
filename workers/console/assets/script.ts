/**
 * The console's progressive enhancement (served at /console/assets/console.js). Every page works without
 * it; with it: drag-and-drop into file inputs, live job status, audio uploads in parts with a progress bar,
 * 16:9 cropping of backgrounds after confirmation, copy buttons and confirmations.
 */
export const CONSOLE_JS = String.raw`(() => {
  "use strict";
  const csrf = () => document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") || "";
  const TERMINAL = new Set(["succeeded", "failed", "expired"]);

  // Drag and drop onto a .dropzone fills its file input.
  for (const zone of document.querySelectorAll(".dropzone")) {
    const input = zone.querySelector('input[type="file"]');
    if (!input) continue;
    zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
    zone.addEventListener("dragleave", () => zone.classList.remove("over"));
    zone.addEventListener("drop", (e) => {
      e.preventDefault();
      zone.classList.remove("over");
      if (!e.dataTransfer || e.dataTransfer.files.length === 0) return;
      input.files = e.dataTransfer.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }

  // Live status: lists with data-poll hold items with data-job-id and data-status.
  for (const list of document.querySelectorAll("[data-poll]")) {
    const url = list.getAttribute("data-poll");
    const tick = async () => {
      const items = [...list.querySelectorAll("[data-job-id]")];
      if (!items.some((el) => !TERMINAL.has(el.getAttribute("data-status")))) return;
      try {
        const res = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
        if (res.ok) {
          const { jobs } = await res.json();
          const byId = new Map(jobs.map((j) => [j.id, j]));
          for (const el of items) {
            const job = byId.get(el.getAttribute("data-job-id"));
            if (!job) continue;
            const before = el.getAttribute("data-status");
            const status = el.querySelector(".status");
            if (status) { status.textContent = job.status; status.className = "status " + job.status; }
            const stage = el.querySelector(".stage");
            if (stage && job.stage) stage.textContent = job.stage;
            if (before !== job.status && TERMINAL.has(job.status)) { location.reload(); return; }
            el.setAttribute("data-status", job.status);
          }
        }
      } catch { /* offline for a moment: try again at the next tick */ }
      setTimeout(tick, 2000);
    };
    setTimeout(tick, 2000);
  }

  // Audio uploads in parts: the file goes to R2 first, then the form is sent with the upload's id.
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
      bar.value = 0;
      const say = (text) => { note.textContent = text; };
      const call = async (method, url, body, type) => {
        const res = await fetch(url, { method, body, credentials: "same-origin", headers: { "X-CSRF-Token": csrf(), ...(type ? { "Content-Type": type } : {}) } });
        const data = await res.json().catch(() => ({}));
        if (!res.ok) throw new Error((data.error && data.error.message) || "Upload failed (" + res.status + ")");
        return data;
      };
      try {
        say("Uploading " + f.name + "…");
        const type = f.type || ({ mp3: "audio/mpeg", wav: "audio/wav", m4a: "audio/mp4", aac: "audio/aac", ogg: "audio/ogg" })[f.name.split(".").pop().toLowerCase()] || "";
        const up = await call("POST", "/console/api/uploads", JSON.stringify({ contentType: type, size: f.size }), "application/json");
        const parts = [];
        for (let n = 1; n <= up.parts; n++) {
          const chunk = f.slice((n - 1) * up.partSize, Math.min(f.size, n * up.partSize));
          parts.push(await call("PUT", "/console/api/uploads/" + up.uploadId + "/parts/" + n, chunk, "application/octet-stream"));
          bar.value = Math.round((100 * Math.min(f.size, n * up.partSize)) / f.size);
        }
        await call("POST", "/console/api/uploads/" + up.uploadId + "/complete", JSON.stringify({ parts }), "application/json");
        bar.value = 100;
        say("Uploaded " + f.name + ". Creating the video…");
        hidden.value = up.uploadId;
        file.disabled = true; // the bytes are in R2 already: do not send them again
        form.submit();
      } catch (err) {
        say(err.message);
        note.setAttribute("role", "alert");
        button.disabled = false;
      }
    });
  }

  // Backgrounds must be 16:9: offer to crop the centre after the person confirms.
  for (const input of document.querySelectorAll('input[type="file"][data-sixteen-nine]')) {
    input.addEventListener("change", async () => {
      const f = input.files && input.files[0];
      if (!f) return;
      const bitmap = await createImageBitmap(f).catch(() => null);
      if (!bitmap) return;
      const { width: w, height: h } = bitmap;
      if (Math.abs(w / h / (16 / 9) - 1) <= 0.01) return;
      if (!confirm("This image is " + w + "×" + h + ", not 16:9. Crop it to 16:9 around the centre?")) { input.value = ""; return; }
      const cw = Math.min(w, Math.round((h * 16) / 9) & ~1), ch = Math.min(h, Math.round((cw * 9) / 16));
      const canvas = document.createElement("canvas");
      canvas.width = cw; canvas.height = ch;
      canvas.getContext("2d").drawImage(bitmap, (w - cw) / 2, (h - ch) / 2, cw, ch, 0, 0, cw, ch);
      const type = f.type === "image/png" ? "image/png" : "image/jpeg";
      const blob = await new Promise((r) => canvas.toBlob(r, type, 0.92));
      const dt = new DataTransfer();
      dt.items.add(new File([blob], f.name.replace(/\.[^.]*$/, "") + "-16x9." + (type === "image/png" ? "png" : "jpg"), { type }));
      input.files = dt.files;
    });
  }

  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", async () => {
      const text = document.getElementById(button.getAttribute("data-copy"))?.textContent || "";
      try { await navigator.clipboard.writeText(text); button.textContent = "Copied"; }
      catch { button.textContent = "Select and copy"; }
    });
  }

  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (e) => { if (!confirm(form.getAttribute("data-confirm"))) e.preventDefault(); });
  }
})();
`;
