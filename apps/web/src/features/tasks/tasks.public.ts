import { lazy } from 'react';

/** What other features use of the taskboard (chat: tasks from messages and task link previews). */
export { TaskLinkPreviews } from './task-link-preview.tsx';
/** Loaded when first opened: the channel page does not carry the board picker. */
export const CreateTaskFromMessageDialog = lazy(() =>
  import('./create-task-from-message.tsx').then((m) => ({ default: m.CreateTaskFromMessageDialog })),
);
