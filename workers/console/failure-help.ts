/** What to do about a failed job, per code (the spec's failure tables, "Action" column, in plain words). */
export const VIDEO_FAILURE_ACTIONS: Record<string, string> = {
  source_unavailable: "Keep the media URL publicly accessible, or upload the file here, then create a new video.",
  unsupported_media_type: "Fix the file or its Content-Type (MP3, WAV, M4A/AAC or OGG audio), then create a new video.",
  empty_media: "The file was empty: fix it, then create a new video.",
  media_too_large: "Audio may be at most 500 MiB and a background image 50 MiB: use a smaller file.",
  preparation_timeout: "Use a source that finishes downloading within the preparation deadline.",
  app_access_revoked: "Video access was withdrawn: ask your operator to restore it, then create a new video.",
  avatar_forbidden: "Restore access to the Avatar, then create a new video.",
  session_token_expired: "Create a new video if the failure is marked retryable.",
  checksum_mismatch: "The source changed while it was prepared: create a new video.",
  render_failed: "Create a new video if the failure is marked retryable.",
  renderer_rejected: "Check the settings; contact support with the job ID if it persists.",
  invalid_manifest: "Check the settings; contact support with the job ID if it persists.",
  expired: "The output's retention period is over; create a new video to render it again.",
};

export const AVATAR_FAILURE_ACTIONS: Record<string, string> = {
  source_download_failed: "The photo could not be fetched: try again.",
  invalid_image: "Use an opaque JPEG or PNG of at most 5 MiB whose shorter side is at least 340 pixels.",
  image_quality_rejected: "Use a photo with exactly one clearly visible face.",
  preprocess_failed: "Try a different photo.",
  avatar_generation_failed: "Try again; if it keeps failing, contact support with the job ID.",
  internal_error: "Try again; if it keeps failing, contact support with the job ID.",
};
