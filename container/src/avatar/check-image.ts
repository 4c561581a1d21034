/**
 * The image half of Avatar creation, on its own: file rules, face search and the face rules. Avatar jobs
 * (preprocess.ts) and the synchronous pre-flight check (preflight.ts) both run exactly this.
 */
import { assessPortrait, type PortraitAssessment } from "./assess";
import { type RgbImage, getHuman } from "../analysis/public";
import { type Analyze, findFaces } from "./find";
import { internalError } from "../rules/public";

/** Face models loaded, or internal_error (retryable: our fault, not the photo's). */
export async function requireFaceModels(): Promise<void> {
  await getHuman().catch((err) => {
    throw internalError(`face models failed to load: ${(err as Error).message}`);
  });
}

/** Finds the faces of a decoded source and judges them; faces and measurements in source pixels. */
export async function checkFaces(image: RgbImage, analyze?: Analyze): Promise<PortraitAssessment> {
  const search = await findFaces(image, analyze);
  return assessPortrait(image, search.faces, search.smallestFindablePx);
}
