// The calls feature's public entry: other features import only what is listed here (biome.json).
export { callUrl, meetingUrl } from './links.ts';
