// Runs every benchmark in turn: `npm run bench`.
await import('./initial-js.ts');
await import('./startup.ts');

export {};
