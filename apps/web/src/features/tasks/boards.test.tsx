import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openedSockets } from '../../test/fake-socket.ts';
import { mockFetch, renderAt, renderRoutes, requestsOf } from '../../test/render.tsx';
import { meResponse } from '../workspaces/test-data.ts';
import { applyBoardChanged } from './board-events.ts';
import { BoardHeader } from './board-forms.tsx';
import { BoardSwitcher } from './board-switcher.tsx';
import { BoardsSection } from './boards-section.tsx';
import { CreateTaskFromMessageDialog } from './create-task-from-message.tsx';
import { TaskCardSummary } from './task-card-summary.tsx';
import { TaskLinkPreviews } from './task-link-preview.tsx';
import { Taskboard } from './taskboard-page.tsx';
import { aBoard, aBoardDetail, aCard, aList, aTask } from './test-data.ts';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

const TEAM = aBoard({ _id: 'b2', title: 'Launch', workspace: { _id: 'w1', name: 'Apollo' }, role: 'admin' });
const OTHER = aBoard({ _id: 'b3', title: 'Ops', workspace: { _id: 'w2', name: 'Zeus' }, role: 'viewer' });
const CARDS = [aCard('a', 'Alpha', 'l1', 0), aCard('b', 'Beta', 'l1', 1)];
const LISTS = [aList({ tasks: CARDS }), aList({ _id: 'l2', name: 'Done', title: 'Done', position: 1 })];

beforeEach(() => {
  openedSockets.length = 0;
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Board switcher', () => {
  it('lists the personal board, then each workspace’s boards under its name, and changes the URL', async () => {
    mockFetch({ 'GET /api/boards': () => ({ json: [aBoard(), TEAM, OTHER] }) });
    const { router } = renderRoutes(
      [
        { path: '/task', element: <BoardSwitcher currentId="b1" /> },
        { path: '/task/board/:boardId', element: <BoardSwitcher currentId="b2" /> },
      ],
      '/task',
    );
    const nav = await screen.findByRole('navigation', { name: 'Boards list' });
    const personal = await within(nav).findByRole('link', { name: 'Personal board' });
    expect(personal.getAttribute('aria-current')).toBe('page');
    const apollo = within(nav).getByRole('region', { name: 'Apollo' });
    expect(within(apollo).getByRole('link', { name: 'Launch' })).toBeTruthy();
    // Admins of Apollo may add boards there; a viewer of Zeus may not.
    expect(within(apollo).getByRole('button', { name: 'New board in Apollo' })).toBeTruthy();
    const zeus = within(nav).getByRole('region', { name: 'Zeus' });
    expect(within(zeus).queryByRole('button', { name: /New board/ })).toBeNull();

    fireEvent.click(within(apollo).getByRole('link', { name: 'Launch' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/task/board/b2'));
  });
});

describe('Board roles', () => {
  it('a viewer sees the cards but no add, rename, delete or move controls', async () => {
    mockFetch({ 'GET /api/boards/b3': () => ({ json: aBoardDetail({ ...OTHER, lists: LISTS }) }) });
    renderAt('/task', <BoardsSection boardId="b3" search="" onOpenTask={() => {}} />);
    expect(await screen.findByRole('button', { name: 'Alpha' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Move Alpha' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Move To do' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Task' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add another list' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Rename list/ })).toBeNull();
    expect(document.querySelector('[draggable="true"]')).toBeNull();
  });

  it('a viewer of a board without lists is told so (not a blank page)', async () => {
    mockFetch({ 'GET /api/boards/b3': () => ({ json: aBoardDetail({ ...OTHER, lists: [] }) }) });
    renderAt('/task', <BoardsSection boardId="b3" search="" onOpenTask={() => {}} />);
    expect(await screen.findByText(/This board has no lists yet\. Editors and admins of Zeus/)).toBeTruthy();
  });

  it('the board header reads "Ops in Zeus (view only)", with the spaces (not "Opsin Zeus")', () => {
    renderAt('/task', <BoardHeader board={aBoardDetail({ ...OTHER })} />);
    expect(screen.getByText('Ops', { exact: false, selector: 'p' }).textContent).toBe(
      'Ops in Zeus (view only)',
    );
  });

  it('a card front counts its attachments in words ("1 attachment", "2 attachments")', () => {
    const file = {
      _id: 'f1',
      name: 'spec.pdf',
      type: 'application/pdf',
      size: 10,
      url: '/api/files/f1',
      thumbnailUrl: null,
      createdAt: '2030-01-01T00:00:00.000Z',
    };
    const card = (title: string, n: number) => ({
      ...aCard(title, title, 'l1', 0),
      attachments: Array.from({ length: n }, (_, i) => ({ ...file, _id: `f${i}` })),
    });
    renderAt(
      '/task',
      <>
        <TaskCardSummary task={card('One', 1)} onOpen={() => {}} />
        <TaskCardSummary task={card('Two', 2)} onOpen={() => {}} />
      </>,
    );
    expect(screen.getByRole('button', { name: 'One' }).textContent).toMatch(/1 attachment$/);
    expect(screen.getByRole('button', { name: 'Two' }).textContent).toMatch(/2 attachments$/);
  });

  it('an editor gets them', async () => {
    mockFetch({
      'GET /api/boards/b2': () => ({ json: aBoardDetail({ ...TEAM, role: 'editor', lists: LISTS }) }),
    });
    renderAt('/task', <BoardsSection boardId="b2" search="" onOpenTask={() => {}} />);
    expect(await screen.findByRole('button', { name: 'Move Alpha' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Add Task' })).toHaveLength(2);
  });
});

describe('boardChanged', () => {
  const board = aBoardDetail({ rev: 4, lists: LISTS });

  it('applies a move order verbatim', () => {
    const next = applyBoardChanged(board, {
      boardId: 'b1',
      rev: 5,
      taskId: 'a',
      task: { ...aCard('a', 'Alpha', 'l2', 0) },
      order: [
        { taskListId: 'l1', taskIds: ['b'] },
        { taskListId: 'l2', taskIds: ['a'] },
      ],
    });
    if (typeof next === 'string') throw new Error(next);
    expect(next.rev).toBe(5);
    expect(next.lists.map((l) => l.tasks.map((t) => t._id))).toEqual([['b'], ['a']]);
  });

  it('ignores an old change and asks for a refetch on a gap', () => {
    expect(applyBoardChanged(board, { boardId: 'b1', rev: 4, taskId: 'a', task: null })).toBe('stale');
    expect(applyBoardChanged(board, { boardId: 'b1', rev: 6, taskId: 'a', task: null })).toBe('refetch');
  });

  it('the open board refetches itself after a gap, and unwatches on leave', async () => {
    let reads = 0;
    mockFetch({
      'GET /api/me': () => ({ json: meResponse }),
      'GET /api/boards': () => ({ json: [aBoard()] }),
      'GET /api/boards/b1': () => {
        reads += 1;
        return { json: aBoardDetail({ rev: reads === 1 ? 1 : 7, lists: reads === 1 ? LISTS : [] }) };
      },
      'GET /api/tasks/notifications': () => ({ json: [] }),
    });
    const { unmount } = renderAt('/task/board/b1', <Taskboard boardId="b1" />);
    expect(await screen.findByRole('button', { name: 'Alpha' })).toBeTruthy();
    await waitFor(() => expect(openedSockets.filter((s) => s.namespace === '/tasks')).toHaveLength(2));
    const socket = openedSockets.filter((s) => s.namespace === '/tasks')[1];
    socket?.serverConnect();
    const before = reads;
    // rev 3 after rev 1: one change is missing.
    socket?.push('boardChanged', { boardId: 'b1', rev: 3, taskId: 'a', task: null });
    await waitFor(() => expect(reads).toBe(before + 1));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Alpha' })).toBeNull());
    unmount();
    expect(socket?.sent('unwatchBoard')).toEqual([{ boardId: 'b1' }]);
  });
});

describe('Task link preview', () => {
  const id = '0b0e4c8e-6a4f-4c55-9d59-4a8f4c1d2e3f';
  const hidden = '1b0e4c8e-6a4f-4c55-9d59-4a8f4c1d2e3f';

  it('shows a card for a visible task and nothing for a 404', async () => {
    mockFetch({
      [`GET /api/tasks/preview/${id}`]: () => ({
        json: {
          _id: id,
          title: 'Ship it',
          priority: 'High',
          labels: [],
          dates: { deadline: null },
          board: { _id: 'b2', title: 'Launch' },
          listTitle: 'To do',
          archived: false,
        },
      }),
      [`GET /api/tasks/preview/${hidden}`]: () => ({ status: 404, json: { message: 'Task not found' } }),
    });
    renderAt(
      '/task',
      <TaskLinkPreviews text={`See http://${window.location.host}/tasks/${id} and /tasks/${hidden}`} />,
    );
    const link = await screen.findByRole('link', { name: 'Task Ship it' });
    expect(link.getAttribute('href')).toBe(`/tasks/${id}`);
    expect(link.textContent).toContain('Launch · To do');
    await waitFor(() => expect(screen.getAllByRole('link')).toHaveLength(1));
  });

  it('leaves links to other sites alone', () => {
    const fetchMock = mockFetch({});
    renderAt('/task', <TaskLinkPreviews text={`https://elsewhere.example/tasks/${id}`} />);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('Create task from message', () => {
  it('defaults to the workspace’s first board and list and posts the source', async () => {
    const fetchMock = mockFetch({
      'GET /api/boards': () => ({ json: [aBoard(), TEAM] }),
      'GET /api/boards/b2': () => ({ json: aBoardDetail({ ...TEAM, lists: LISTS }) }),
      'POST /api/tasks': () => ({ status: 201, json: aTask({ _id: 't9', title: 'Deploy on Friday' }) }),
    });
    const channelId = '2b0e4c8e-6a4f-4c55-9d59-4a8f4c1d2e3f';
    const messageId = '3b0e4c8e-6a4f-4c55-9d59-4a8f4c1d2e3f';
    const onClose = vi.fn();
    renderAt(
      '/task',
      <CreateTaskFromMessageDialog
        workspaceName="Apollo"
        channelId={channelId}
        message={{ _id: messageId, content: 'Deploy on Friday\nwith @[Bob Byte](bob@example.com)' }}
        onClose={onClose}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Create task from message' });
    await waitFor(() =>
      expect((within(dialog).getByRole('combobox', { name: 'List' }) as HTMLSelectElement).value).toBe('l1'),
    );
    expect((within(dialog).getByRole('combobox', { name: 'Board' }) as HTMLSelectElement).value).toBe('b2');
    expect((within(dialog).getByRole('textbox', { name: 'Title' }) as HTMLInputElement).value).toBe(
      'Deploy on Friday',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create task' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requestsOf(fetchMock).find((r) => r.route === 'POST /api/tasks')?.body).toEqual({
      title: 'Deploy on Friday',
      description: 'Deploy on Friday\nwith @[Bob Byte](bob@example.com)',
      priority: 'Medium',
      taskListId: 'l1',
      source: { workspaceName: 'Apollo', channelId, messageId },
    });
    expect(await screen.findByText('Task created: Deploy on Friday')).toBeTruthy();
  });
});
