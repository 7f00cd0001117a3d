// What the live parts of a screen need once it is on screen, in one chunk that lib/live.ts loads after
// the first render: the Socket.IO client and the shared zod schemas that check what the server sends
// (zod classic does not tree-shake: 26 KiB of gzip, 13 more for the client; issue 21). The server
// preloads this chunk on the pages that use it (apps/server/src/http/web-shell.ts), so it arrives
// with the page's first API reads instead of after them.
export { iceServersResponse, meetingState } from '@cohort/shared/calls';
export {
  channelMessage,
  channelMessageList,
  directMessage,
  directMessageList,
  joinChannelAck,
  sendChannelMessageAck,
  sendDirectMessageAck,
  userTypingEvent,
} from '@cohort/shared/chat';
export { storedFile } from '@cohort/shared/files';
export { person, personList } from '@cohort/shared/people';
export { channelUnread, channelUnreadList, directUnread, directUnreadList } from '@cohort/shared/reads';
export { connectNamespace } from './socket.ts';
