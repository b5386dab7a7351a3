// Small text helpers shared by the report writers.

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Seconds as "1234.5 s" or, above an hour, with h:mm:ss too. */
export function formatSeconds(s: number): string {
  const base = `${s.toFixed(s < 10 ? 2 : 1)} s`;
  if (s < 3600) return base;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = Math.floor(s % 60);
  return `${base} (${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')})`;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

export function formatPercent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)} %`;
}

/** Round tick spacing (1, 2 or 5 × 10^k) giving about `target` ticks over `spanS`. */
export function tickStepS(spanS: number, target = 10): number {
  if (!(spanS > 0)) return 1;
  const raw = spanS / target;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const m = raw / pow;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * pow;
}
