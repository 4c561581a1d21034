/** A seeded random source for the training corpus (same seed, same corpus). */
export type Rng = () => number;
export { prng as makeRng } from "../../packages/motion-model/src/life";
