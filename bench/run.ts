// Runs every benchmark in turn: `npm run bench`.
await import('./initial-js.ts');
await import('./startup.ts');
await import('./idle-memory.ts');
await import('./idle-rss.ts'); // the bundle's resident memory after start, as `npm run serve` runs it
await import('./lighthouse.ts');
await import('./call-first-frame.ts');
await import('./summary.ts');
await import('./github-sync.ts');
await import('./board-moves.ts'); // team board: 500 cards, 20 watchers, move → visible p99, PGlite and PostgreSQL
await import('./message-store.ts'); // one message at a time: the search index's stalls, PGlite and PostgreSQL
await import('./direct-latency.ts'); // direct messages: send → acknowledgement and → receiver, CPU and transactions per message
await import('./meeting-media.ts'); // meetings: upload and server CPU per person, mesh against SFU (issue 23)
// Last: it ends the process. 1,000 clients at 200 msg/s on PGlite, and on PostgreSQL side by side
// with the ratios when DATABASE_URL is set (docs/performance.md, "The embedded default against PostgreSQL").
await import('./chat-latency.ts');

export {};
