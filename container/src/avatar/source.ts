/**
 * Downloads an Avatar source image through the SSRF-safe fetcher with the spec's limits (answer within
 * 3 s, at most 5 MiB) and turns every fetch error into a refusal with its reason. Used by Avatar jobs and
 * by the synchronous pre-flight check (POST /checks), so both judge a URL the same way.
 */
import { type RendererConfig, FetchError, safeFetch } from "../io/public";
import { downloadRefusal } from "../rules/public";

export type SourceImage = Awaited<ReturnType<typeof safeFetch>>;

export async function downloadSource(
  url: string,
  config: Pick<RendererConfig, "avatar" | "allowlist">,
  signal?: AbortSignal,
): Promise<SourceImage> {
  const started = performance.now();
  try {
    return await safeFetch(url, {
      // The spec's 5 MiB: one byte more is caught while streaming (too_large → invalid_image).
      maxBytes: config.avatar.maxImageBytes,
      firstByteTimeoutMs: config.avatar.firstByteMs,
      totalTimeoutMs: config.avatar.transferDeadlineMs,
      maxRedirects: 5,
      allowlist: config.allowlist,
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (err instanceof FetchError) throw downloadRefusal(err, config.avatar, performance.now() - started);
    throw err;
  }
}
