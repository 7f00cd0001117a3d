// Top self-time functions of a V8 CPU profile (a .cpuprofile written by bench/load.ts PROFILE=<dir>
// or by node --cpu-prof), and the same grouped by package / source file.
//
//   node --import tsx bench/cpu-top.ts /tmp/prof/load-….cpuprofile [top=25]
import { readFileSync } from 'node:fs';
import { frameName, isOurs, placeOf, topRows } from './profile-places.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: cpu-top.ts <file.cpuprofile> [top]');
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

// Self time per node from the samples (each sample's delta is the time until the next one).
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
});
const totalUs = profile.endTime - profile.startTime;

const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  if (us === 0) continue;
  const { url } = node.callFrame;
  const place = placeOf(url);
  const fn = frameName(node.callFrame);
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  const group = url.includes('node_modules') || !url ? place : place.split('/').slice(0, 4).join('/');
  byPlace.set(group, (byPlace.get(group) ?? 0) + us);
}

const table = (m: Map<string, number>) => topRows(m, top, totalUs, 'self_ms', 1000);

// Inclusive time of our own functions (apps/, packages/): where the library time above comes from.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const counted = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parentOf.get(cur)) {
    const node = byId.get(cur);
    if (!node || !isOurs(node.callFrame.url)) continue;
    const key = frameName(node.callFrame);
    if (counted.has(key)) continue; // recursion counts once
    counted.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
}

console.log(`${file}: ${(totalUs / 1e6).toFixed(1)} s profiled`);
console.log('top self time by function');
console.table(table(byFunction));
console.log('self time by package / source file');
console.table(table(byPlace));
console.log('inclusive time of our functions');
console.table(table(inclusive));
