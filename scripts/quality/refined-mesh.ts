/**
 * A face mesh with refined lips and eyes: MediaPipe Face Mesh with attention (`refineLandmarks`), the
 * model trained to place the lip and eyelid contours precisely, from the npm package `@mediapipe/face_mesh`
 * (its weights ship in node_modules). Human's FaceMesh, which the quality script still uses for the face
 * box, alignment and SSIM, has no lip refinement and reads only 43–65 % of a painted opening on some
 * portraits, and reads a closed lid behind glasses rims as 0.70–0.85 open (docs/animation.md, "How the
 * opening is read", "Why blinks are read by both meshes"). The package is a browser solution
 * (WebAssembly and WebGL), so it runs in headless Chromium — the same Debian build the console tests
 * drive — fed from a loopback HTTP server that serves the package's files and the current frame as raw RGB.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

const PACKAGE = dirname(createRequire(import.meta.url).resolve("@mediapipe/face_mesh/package.json"));
const PAGE = `<!doctype html><canvas id="c"></canvas><script src="/face_mesh.js"></script>`;

/** Runs in the page: start the solution, then `window.detect(w, h)` reads /frame and returns pixel landmarks. */
async function startInPage(): Promise<void> {
  type Landmark = { x: number; y: number };
  const w = window as unknown as Record<string, unknown>;
  const FaceMesh = w.FaceMesh as new (
    o: object,
  ) => {
    setOptions(o: object): void;
    onResults(cb: (r: { multiFaceLandmarks?: Landmark[][] }) => void): void;
    initialize(): Promise<void>;
    send(i: { image: HTMLCanvasElement }): Promise<void>;
  };
  const fm = new FaceMesh({ locateFile: (f: string) => `/${f}` });
  // CPU inference (WebAssembly): headless Chromium has only a software GPU.
  fm.setOptions({
    maxNumFaces: 1,
    refineLandmarks: true,
    useCpuInference: true,
    minDetectionConfidence: 0.5,
    minTrackingConfidence: 0.5,
  });
  let found: Landmark[] | null = null;
  fm.onResults((r) => (found = r.multiFaceLandmarks?.[0] ?? null));
  await fm.initialize();
  const canvas = document.getElementById("c") as HTMLCanvasElement;
  const ctx = canvas.getContext("2d")!;
  w.detect = async (width: number, height: number) => {
    const rgb = new Uint8Array(await (await fetch("/frame")).arrayBuffer());
    canvas.width = width;
    canvas.height = height;
    const img = ctx.createImageData(width, height);
    for (let i = 0, j = 0; j < rgb.length; i += 4, j += 3) {
      img.data[i] = rgb[j];
      img.data[i + 1] = rgb[j + 1];
      img.data[i + 2] = rgb[j + 2];
      img.data[i + 3] = 255;
    }
    ctx.putImageData(img, 0, 0);
    found = null;
    await fm.send({ image: canvas });
    return found && (found as Landmark[]).map((p) => [p.x * width, p.y * height]);
  };
}

export class RefinedMesh {
  private frame: Buffer = Buffer.alloc(0);

  private constructor(
    private server: Server,
    private browser: Browser,
    private page: Page,
  ) {}

  static async open(executablePath = "/usr/bin/chromium"): Promise<RefinedMesh> {
    let self: RefinedMesh | undefined;
    const server = createServer((req, res) => {
      const name = new URL(req.url ?? "/", "http://localhost").pathname.slice(1);
      if (name === "") return res.setHeader("content-type", "text/html").end(PAGE);
      if (name === "frame") return res.end(self?.frame);
      if (!/^face_mesh[\w.]*$/.test(name)) return res.writeHead(404).end();
      const type = name.endsWith(".js")
        ? "text/javascript"
        : name.endsWith(".wasm")
          ? "application/wasm"
          : "application/octet-stream";
      res.setHeader("content-type", type).end(readFileSync(join(PACKAGE, name)));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--enable-unsafe-swiftshader"] });
    const page = await browser.newPage();
    // tsx (esbuild keepNames) wraps the serialised page functions in __name(); give the page one.
    await page.addInitScript("globalThis.__name = (f) => f");
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.evaluate(startInPage);
    self = new RefinedMesh(server, browser, page);
    return self;
  }

  /** The 478 landmarks ([x, y] in pixels) of the face in an RGB24 frame, or null when none is found. */
  async detect(rgb: Buffer, width: number, height: number): Promise<number[][] | null> {
    this.frame = rgb;
    return this.page.evaluate(
      ([w, h]) => (window as unknown as { detect(w: number, h: number): Promise<number[][] | null> }).detect(w, h),
      [width, height],
    );
  }

  async close(): Promise<void> {
    await this.browser.close();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
