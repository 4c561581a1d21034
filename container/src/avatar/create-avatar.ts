/** Entry point the renderer's engine loader imports (jobs/engines.ts: "../avatar/create-avatar"). */
export { createAvatarAssets, type AvatarAssetOptions, type AvatarAssets } from "./preprocess";
