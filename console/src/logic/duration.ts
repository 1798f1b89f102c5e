/**
 * A duration in milliseconds as people read it: "850 ms" under a second, "12.3 s" under a
 * minute, "4 min 05 s" beyond. Negative or non-finite input reads as "0 ms".
 */
export function formatDuration(ms: number): string {
  const value = Number.isFinite(ms) && ms > 0 ? ms : 0;
  if (value < 1000) return `${Math.round(value)} ms`;
  if (value < 60_000) return `${(value / 1000).toFixed(1)} s`;
  const seconds = Math.round(value / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}
