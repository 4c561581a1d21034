/**
 * The Avatar job kind's work, above analysis/: a source image downloaded and judged by the Avatar image
 * rules (the file, then "exactly one clearly visible face"), then made into portrait, rig, cover and matte;
 * and the synchronous pre-flight check (POST /checks) that judges a URL the same way. It never imports video/.
 */
export { assessPortrait } from "./assess";
export { checkFaces } from "./check-image";
export { findFaces } from "./find";
export { answerAvatarCheck, type AvatarCheckAnswer } from "./preflight";
export { RIG_ANALYSIS_SIDE, createAvatarAssets, type AvatarAssets } from "./preprocess";
export { downloadSource } from "./source";
