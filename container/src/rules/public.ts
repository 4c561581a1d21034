/**
 * What the renderer accepts and how it says no, one floor above io/: the thresholds an Avatar source image
 * is judged by, and every failure a job can end with (JobFailure and its builders). All wholly public.
 */
export * from "./avatar-refusals";
export * from "./failures";
export * from "./fetch-failures";
export * from "./image-rules";
