/** Suggests the closest known name for a misspelt one (e.g. KeyTemplat -> KeyTemplate): keys, classes, links, commands. */
export function closest(name: string, candidates: Iterable<string>, maxDistance = 2): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  const lower = name.toLowerCase();
  for (const c of candidates) {
    if (c.toLowerCase() === lower) return c;
    // farther than any suggestion could be; also keeps a huge hostile name from costing length x length work
    if (Math.abs(c.length - name.length) > maxDistance) continue;
    const d = distance(lower, c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  const limit = Math.min(maxDistance, Math.max(1, Math.floor(name.length / 3)));
  return bestD <= limit ? best : undefined;
}

/** Levenshtein distance with adjacent transposition (optimal string alignment). */
function distance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  const d: number[][] = Array.from({ length: m + 1 }, (_, i) => [i, ...new Array<number>(n).fill(0)]);
  for (let j = 0; j <= n; j++) d[0][j] = j;
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[m][n];
}

/** `; did you mean "X"?` or an empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const c = closest(name, candidates);
  return c === undefined ? '' : `; did you mean ${JSON.stringify(c)}?`;
}
