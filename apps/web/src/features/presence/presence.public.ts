// The presence feature's public entry: other features import only what is listed here (biome.json).
export { PresenceDot } from './presence-dot.tsx';
export { usePersonPresence, usePresence, useWorkspacePresence } from './use-presence.ts';
