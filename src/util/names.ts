// Helpers for messages about names: "did you mean" suggestions and short lists.

function editDistance(a: string, b: string): number {
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** The closest known name within a small edit distance, if any (ties: first in `known` order). */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  for (const k of known) {
    if (Math.abs(k.length - name.length) > bestD) continue;
    const d = editDistance(name, k);
    if (d <= bestD && (best === undefined || d < editDistance(name, best))) {
      best = k;
      bestD = d;
    }
  }
  return best;
}

/** "a, b, c and 4 more" */
export function shortList(items: readonly string[], max = 5): string {
  if (items.length === 0) return '(none)';
  if (items.length <= max) return items.join(', ');
  return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}
