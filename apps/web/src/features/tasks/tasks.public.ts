/** What other features use of the taskboard (chat: tasks from messages and task link previews). */
export { CreateTaskFromMessageDialog } from './create-task-from-message.tsx';
export { TaskLinkPreviews } from './task-link-preview.tsx';
