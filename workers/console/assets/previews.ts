/** A preview of the chosen portrait before Create Avatar (img[data-preview-for] names its file input). */
export function previews(): void {
  for (const img of document.querySelectorAll<HTMLImageElement>("img[data-preview-for]")) {
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
