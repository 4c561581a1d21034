/**
 * A FramePainter's shared memory (wasm/warp-kernel.ts PaintArena), filled once: every pooled frame, and
 * person frame, starts as the static canvas; the mesh at rest; beside the unchanged video, which triangles
 * are the person's own (person-tris.ts).
 */
import type { FaceModel } from "@avatar-video/face-rig";
import type { PersonMode } from "./person-blend";
import { splitPersonTris } from "./person-tris";
import { PaintArena } from "./wasm/warp-kernel";
import type { Yuv420Layout } from "./yuv";

/** The person layer's static frames (video/person-scene.ts); mode "none" without one. */
export interface PersonFrames {
  mode: PersonMode;
  /** yuva420p. */
  person?: Uint8Array;
  /** yuv420p ("over"). */
  back?: Uint8Array;
}

export function fillPainterArena(
  model: FaceModel,
  staticYuv: Uint8Array,
  layout: Yuv420Layout,
  poolSize: number,
  threads: number,
  person: PersonFrames,
): PaintArena {
  const split =
    person.mode === "beside" && person.person
      ? splitPersonTris(model, staticYuv, person.person, layout)
      : { inner: new Uint8Array(0), edge: new Uint32Array(0) };
  const a = PaintArena.create({
    frameSize: layout.frameSize,
    poolSize,
    vertices: model.count,
    tris: model.tris.length,
    holeTris: model.holeTris.length,
    threads,
    person: person.mode,
    edgeTris: split.edge.length,
  });
  a.stat.set(staticYuv);
  for (const f of a.pool) f.set(staticYuv);
  if (person.person) for (const f of [a.personStat, ...a.personPool]) f.set(person.person);
  if (person.back) a.back.set(person.back);
  a.inner.set(split.inner);
  a.edgeTris.set(split.edge);
  a.base.set(model.base);
  a.xy.set(model.base);
  a.tris.set(model.tris);
  a.holeTris.set(model.holeTris);
  return a;
}
