// The calls feature's public entry: other features import only what is listed here (biome.json).
export { callUrl, joinMeetingUrl, meetingUrl } from './links.ts';
export { MeetingBanner } from './meeting-banner.tsx';
