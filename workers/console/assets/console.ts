/**
 * The console's progressive enhancement, bundled into /console/assets/console.js (scripts/build-assets.ts).
 * Every page works without it; with it: drag-and-drop into file inputs, live job status (live-jobs.ts),
 * audio uploads in parts with a progress bar and resumption (upload-parts.ts), a portrait preview
 * (previews.ts), 16:9 cropping of backgrounds after confirmation (crop-backgrounds.ts), copy buttons and
 * confirmations.
 */
import { cropBackgrounds } from "./crop-backgrounds";
import { liveJobs } from "./live-jobs";
import { previews } from "./previews";
import { uploadParts } from "./upload-parts";

/** The page's CSRF token (layout.tsx puts it in a meta tag), sent with the upload API's calls. */
const csrf = () => document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") || "";

/** Drag and drop onto a .dropzone fills its file input. */
function dropzones(): void {
  for (const zone of document.querySelectorAll(".dropzone")) {
    const input = zone.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) continue;
    zone.addEventListener("dragover", (e) => {
      e.preventDefault();
      zone.classList.add("over");
    });
    zone.addEventListener("dragleave", () => zone.classList.remove("over"));
    zone.addEventListener("drop", (e) => {
      e.preventDefault();
      zone.classList.remove("over");
      const files = (e as DragEvent).dataTransfer?.files;
      if (!files || files.length === 0) return;
      input.files = files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }
}

/** button[data-copy] copies the text of the element it names. */
function copyButtons(): void {
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

/** form[data-confirm] is sent only after the person confirms its question. */
function confirmations(): void {
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
