/** The renderer's name for the photo's mouth style; the code is shared with the live client (face-rig mouth-style.ts). */
export { mouthStyle, type MouthStyle } from "@avatar-video/face-rig";
