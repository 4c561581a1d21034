import { LIVE_JOBS_JS } from "./live-jobs";
import { PREVIEWS_JS } from "./previews";
import { UPLOAD_PARTS_JS } from "./upload-parts";

/**
 * The console's progressive enhancement (served at /console/assets/console.js). Every page works without
 * it; with it: drag-and-drop into file inputs, live job status (live-jobs.ts), audio uploads in parts with a progress bar
 * and resumption (upload-parts.ts), a portrait preview (previews.ts),
 * 16:9 cropping of backgrounds after confirmation, copy buttons and confirmations.
 */
export const CONSOLE_JS = String.raw`(() => {
  "use strict";
  const csrf = () => document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") || "";

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

${LIVE_JOBS_JS}
${UPLOAD_PARTS_JS}
${PREVIEWS_JS}
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
