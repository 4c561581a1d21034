/** Edits (insert, delete, substitute, swap two neighbours) between two words. */
export function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidate nearest to `typed`, when it is near enough to be a typo (a third of its length, at least 2). */
export function closest(typed: string, candidates: string[]): string | undefined {
  let best: { name: string; edits: number } | undefined;
  for (const name of candidates) {
    const edits = distance(typed.toLowerCase(), name);
    if (!best || edits < best.edits) best = { name, edits };
  }
  return best && best.edits <= Math.max(2, Math.floor(typed.length / 3)) ? best.name : undefined;
}
