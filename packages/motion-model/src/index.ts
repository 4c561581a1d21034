// The animation model: the same audio analysis and motion curves drive rendered videos (container/) and live
// motion frames (workers/motion). Pure TypeScript with no Node or Workers APIs.
export * from "./lipsync";
export * from "./life";
export * from "./blink-rate";
export * from "./blink-blocks";
export * from "./performance-track";
export * from "./smoothstep";
export * from "./versions";
export type { MotionFrame } from "./motion-frame";
export * from "./stream";
export { useAnalysisKernel, analysisKernel } from "./wasm-kernel";
