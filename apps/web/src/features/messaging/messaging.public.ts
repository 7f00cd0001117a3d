// The messaging feature's public entry: other features import only what is listed here (biome.json).

export { type ConversationItem, ConversationView, type MessageLayout } from './conversation-view.tsx';
export {
  DeletedBody,
  EditedMarker,
  EditForm,
  MessageActions,
  PinnedMarker,
  ReactionsRow,
  reactFailed,
  ThreadSummary,
} from './message-parts.tsx';
export { lastEditableMessage, messageLink, useMessageEditing } from './message-tools.ts';
export { messageActions, useConversation } from './use-conversation.ts';
