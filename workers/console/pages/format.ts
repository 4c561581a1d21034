/** "2026-11-20 14:03 UTC": unambiguous for every reader, no client-side locale code needed. */
export const when = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
