/** Part of console.js: a preview of the chosen portrait before Create Avatar (img[data-preview-for]). */
export const PREVIEWS_JS = `
  for (const img of document.querySelectorAll("img[data-preview-for]")) {
    const input = document.getElementById(img.getAttribute("data-preview-for"));
    if (!input) continue;
    input.addEventListener("change", () => {
      if (img.src) URL.revokeObjectURL(img.src);
      const f = input.files && input.files[0];
      if (!f) { img.hidden = true; img.removeAttribute("src"); return; }
      img.src = URL.createObjectURL(f);
      img.hidden = false;
    });
  }
`;
