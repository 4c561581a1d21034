/** Backgrounds must be 16:9 (input[data-sixteen-nine]): offer to crop the centre after the person confirms. */

const SIXTEEN_NINE = 16 / 9;

async function cropped(f: File): Promise<File | "keep" | "refused"> {
  const bitmap = await createImageBitmap(f).catch(() => null);
  if (!bitmap) return "keep";
  const { width: w, height: h } = bitmap;
  if (Math.abs(w / h / SIXTEEN_NINE - 1) <= 0.01) return "keep";
  if (!confirm(`This image is ${w}×${h}, not 16:9. Crop it to 16:9 around the centre?`)) return "refused";
  const cw = Math.min(w, Math.round((h * 16) / 9) & ~1);
  const ch = Math.min(h, Math.round((cw * 9) / 16));
  const canvas = document.createElement("canvas");
  canvas.width = cw;
  canvas.height = ch;
  canvas.getContext("2d")?.drawImage(bitmap, (w - cw) / 2, (h - ch) / 2, cw, ch, 0, 0, cw, ch);
  const type = f.type === "image/png" ? "image/png" : "image/jpeg";
  const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, type, 0.92));
  if (!blob) return "keep";
  const name = `${f.name.replace(/\.[^.]*$/, "")}-16x9.${type === "image/png" ? "png" : "jpg"}`;
  return new File([blob], name, { type });
}

export function cropBackgrounds(): void {
  for (const input of document.querySelectorAll<HTMLInputElement>('input[type="file"][data-sixteen-nine]')) {
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
