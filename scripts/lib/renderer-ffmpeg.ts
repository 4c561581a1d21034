/** The ffmpeg the renderer chose (its GET /health; container/src/media/ffmpeg.ts), as one line for the terminal. */
export async function rendererFfmpeg(rendererUrl: string): Promise<string> {
  try {
    const res = await fetch(`${rendererUrl}/health`, { signal: AbortSignal.timeout(5_000) });
    const { ffmpeg } = (await res.json()) as { ffmpeg?: { version: string; source: string; path: string } };
    if (!ffmpeg) return "Renderer ffmpeg: not reported";
    const line = `Renderer ffmpeg: ${ffmpeg.version} (${ffmpeg.path})`;
    if (ffmpeg.source !== "npm") return line;
    return `${line}: the npm build of 2018, unmaintained. Install a maintained one (Debian: sudo apt-get install -y ffmpeg) and restart.`;
  } catch (error) {
    return `Renderer ffmpeg: unknown (${rendererUrl}/health did not answer: ${String(error)})`;
  }
}
