import { buildPgliteTemplate } from './client.ts';

const started = performance.now();
const path = await buildPgliteTemplate();
console.log(`PGlite template ready: ${path} (${Math.round(performance.now() - started)} ms)`);
