/**
 * The Avatar's person matte, stored next to its portrait and rig (`avatars/{avatarId}/matte.png`): an 8-bit
 * greyscale PNG of exactly the portrait's size, 255 where the pixel is the person, 0 the photo's backdrop,
 * in between on soft edges (hair). Made at Avatar creation; for an Avatar made before mattes existed, by
 * the first video run that needs it (docs/rendering.md, "The person matte").
 */
export const MATTE_CONTENT_TYPE = "image/png";
