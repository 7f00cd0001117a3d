// Where a V8 sampling heap profile's bytes were allocated (a .heapprofile written by bench/load.ts
// HEAP_PROFILE=<dir>: what outlived the young generation during a hold): by function, by package or
// source file, and by the nearest Cohort frame that led there (which of our calls kept it).
//
//   node --import tsx bench/heap-top.ts /tmp/heap/load-….heapprofile [top=25]
import { readFileSync } from 'node:fs';
import { frameName, isOurs, placeOf, topRows } from './profile-places.ts';

interface HeapNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: heap-top.ts <file.heapprofile> [top]');
const top = Number(topArg ?? 25);
const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode };

const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
const byOurFrame = new Map<string, number>();
let total = 0;
const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
// Depth-first with the innermost Cohort frame seen on the way down.
const walk = (n: HeapNode, ourFrame: string) => {
  const mine = isOurs(n.callFrame.url) ? frameName(n.callFrame) : ourFrame;
  if (n.selfSize > 0) {
    total += n.selfSize;
    add(byFunction, frameName(n.callFrame), n.selfSize);
    add(byPlace, placeOf(n.callFrame.url), n.selfSize);
    add(byOurFrame, mine || '(no Cohort frame)', n.selfSize);
  }
  for (const c of n.children) walk(c, mine);
};
walk(head, '');

const table = (m: Map<string, number>) => topRows(m, top, total, 'kib', 1024);

console.log(`total sampled: ${(total / 1024 / 1024).toFixed(1)} MiB`);
console.log('\nby function');
console.table(table(byFunction));
console.log('\nby package or file');
console.table(table(byPlace));
console.log('\nby the innermost Cohort frame on the stack');
console.table(table(byOurFrame));
