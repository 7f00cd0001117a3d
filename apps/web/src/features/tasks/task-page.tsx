import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import NotFoundPage from '../../app/not-found-page.tsx';
import { ApiError } from '../../lib/api.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { Taskboard } from './taskboard-page.tsx';
import { taskQuery } from './tasks.queries.ts';

/** /tasks/:taskId: the taskboard with that card open, or the 404 page when the task is not visible. */
export default function TaskPage() {
  const { taskId = '' } = useParams();
  const navigate = useNavigate();
  const task = useQuery(taskQuery(taskId));
  useDocumentTitle(task.data?.title ?? 'Task');

  if (task.isError && task.error instanceof ApiError && task.error.status === 404) {
    return <NotFoundPage />;
  }
  return (
    <Taskboard
      key={taskId}
      initialTaskId={taskId}
      boardId={task.data?.boardId}
      onInitialTaskClosed={() => navigate('/task')}
    />
  );
}
