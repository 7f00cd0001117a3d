// Runs every benchmark in turn: `npm run bench`.
await import('./initial-js.ts');
await import('./startup.ts');
await import('./idle-memory.ts');
await import('./lighthouse.ts');
await import('./call-first-frame.ts');
await import('./summary.ts');
await import('./github-sync.ts');
await import('./board-moves.ts'); // team board: 500 cards, 20 watchers, move → visible p99, PGlite and PostgreSQL

export {};
