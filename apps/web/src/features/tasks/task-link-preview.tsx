import { lazy, Suspense } from 'react';

/** Loaded with the first message that links a task: the channel page does not carry it otherwise. */
const TaskPreviewCard = lazy(() => import('./task-preview-card.tsx'));

const TASK_LINK =
  /(?:https?:\/\/([^\s/]+))?\/tasks\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/gi;
const PREVIEWS_MAX = 3;

/** The task ids a message links to (relative links, or absolute ones to this app), first three. */
export function taskLinkIds(text: string, host = typeof window === 'undefined' ? '' : window.location.host) {
  const ids: string[] = [];
  for (const match of text.matchAll(TASK_LINK)) {
    const [, linkHost, id] = match;
    if (linkHost && linkHost !== host) continue;
    const lower = (id as string).toLowerCase();
    if (!ids.includes(lower)) ids.push(lower);
  }
  return ids.slice(0, PREVIEWS_MAX);
}

/** Preview cards under a chat message for the task links in its text. */
export function TaskLinkPreviews({ text }: { text: string }) {
  const ids = taskLinkIds(text);
  if (ids.length === 0) return null;
  return (
    <div className="px-1">
      <Suspense fallback={null}>
        {ids.map((id) => (
          <TaskPreviewCard key={id} taskId={id} />
        ))}
      </Suspense>
    </div>
  );
}
