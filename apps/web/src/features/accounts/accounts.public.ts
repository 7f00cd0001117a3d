// The accounts feature's public entry: other features import only what is listed here (biome.json).
export { passwordProblemOf, preloadPasswordCheck } from './password-check.ts';
export { meQueryKey, useMe } from './use-me.ts';
