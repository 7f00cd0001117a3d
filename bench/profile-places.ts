// What bench/cpu-top.ts and bench/heap-top.ts share: where a profile's frame lives, and a top-N table.

/** A frame's package (from node_modules), source file of ours (apps/…, packages/…) or Node module. */
export function placeOf(url: string): string {
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1] as string;
  const src = url.match(/\/(apps|packages)\/(.+)$/);
  if (src) return `${src[1]}/${src[2]}`;
  return url || '(native)';
}

/** Whether a frame is Cohort's own code (apps/…, packages/…, not a package they load). */
export const isOurs = (url: string) => /\/(apps|packages)\//.test(url) && !url.includes('node_modules');

/** A frame as `function place:line` (no line for native frames). */
export function frameName(frame: { functionName: string; url: string; lineNumber: number }): string {
  const line = frame.url ? `:${frame.lineNumber + 1}` : '';
  return `${frame.functionName || '(anonymous)'} ${placeOf(frame.url)}${line}`;
}

/** The `top` largest entries as rows: the value divided by `per` under `unit`, and its share of `total`. */
export function topRows(m: Map<string, number>, top: number, total: number, unit: string, per: number) {
  return [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, value]) => ({
      name,
      [unit]: Math.round(value / per),
      pct: Math.round((value / total) * 1000) / 10,
    }));
}
