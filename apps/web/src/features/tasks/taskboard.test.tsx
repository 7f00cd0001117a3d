import type { Task } from '@cohort/shared/tasks';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openedSockets } from '../../test/fake-socket.ts';
import { mockFetch, renderAt, requestsOf } from '../../test/render.tsx';
import { meResponse } from '../workspaces/test-data.ts';
import { AddListForm } from './add-list-form.tsx';
import { TaskCardModal } from './task-card.tsx';
import { Taskboard } from './taskboard-page.tsx';
import { aBoard, aBoardDetail, aList, aTask } from './test-data.ts';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

const LISTS = [aList(), aList({ _id: 'l2', name: 'Done', title: 'Done', position: 1 })];

beforeEach(() => {
  openedSockets.length = 0;
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Add another list', () => {
  it('refuses a blank name without a request, then creates the list on Enter', async () => {
    const fetchMock = mockFetch({
      'POST /api/tasklists': (body) => ({
        status: 201,
        json: aList({ _id: 'l9', name: (body as { title: string }).title }),
      }),
      'GET /api/tasklists': () => ({ json: [] }),
    });
    renderAt('/task', <AddListForm />);

    fireEvent.click(screen.getByRole('button', { name: 'Add another list' }));
    const input = screen.getByRole('textbox', { name: 'List name' });
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add List' }));
    expect(screen.getByRole('alert').textContent).toBe('List name cannot be empty.');
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(input, { target: { value: 'Doing' } });
    fireEvent.submit(input);
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'List name' })).toBeNull());
    expect(requestsOf(fetchMock)[0]).toEqual({ route: 'POST /api/tasklists', body: { title: 'Doing' } });
  });

  it('Cancel closes the form without a request', () => {
    const fetchMock = mockFetch({});
    renderAt('/task', <AddListForm />);
    fireEvent.click(screen.getByRole('button', { name: 'Add another list' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Add another list' })).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('Task card', () => {
  const withChecklist = aTask({
    checklist: [
      { _id: 'c1', title: 'Outline', status: true },
      { _id: 'c2', title: 'Draft', status: false },
    ],
  });

  it('shows checklist progress as done/total and a percentage bar', async () => {
    mockFetch({ 'GET /api/task/t1': () => ({ json: withChecklist }) });
    renderAt('/task', <TaskCardModal taskId="t1" lists={LISTS} onClose={() => {}} />);

    const dialog = await screen.findByRole('dialog', { name: 'Write the report' });
    const checklist = await within(dialog).findByRole('region', { name: 'Checklist' });
    expect(within(checklist).getByText('1/2')).toBeTruthy();
    expect(within(checklist).getByText('50%')).toBeTruthy();
    expect(within(checklist).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
  });

  it('opens one side panel at a time; clicking the open one closes it', async () => {
    mockFetch({ 'GET /api/task/t1': () => ({ json: aTask() }) });
    renderAt('/task', <TaskCardModal taskId="t1" lists={LISTS} onClose={() => {}} />);

    const labels = await screen.findByRole('button', { name: 'Labels' });
    const checklist = screen.getByRole('button', { name: 'Checklist' });
    const move = screen.getByRole('button', { name: 'Move' });

    fireEvent.click(labels);
    expect(labels.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'New label' })).toBeTruthy();

    fireEvent.click(checklist);
    expect(labels.getAttribute('aria-expanded')).toBe('false');
    expect(checklist.getAttribute('aria-expanded')).toBe('true');
    expect(screen.queryByRole('textbox', { name: 'New label' })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'New checklist item' })).toBeTruthy();

    fireEvent.click(move);
    // The move panel lists the other lists only.
    const panel = screen.getByRole('region', { name: 'Move panel' });
    expect(within(panel).getByRole('button', { name: 'Done' })).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'To do' })).toBeNull();

    fireEvent.click(move);
    expect(move.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region', { name: 'Move panel' })).toBeNull();
  });

  it('does not send a blank comment; Cancel restores the description', async () => {
    const fetchMock = mockFetch({ 'GET /api/task/t1': () => ({ json: aTask() }) });
    renderAt('/task', <TaskCardModal taskId="t1" lists={LISTS} onClose={() => {}} />);

    const comment = await screen.findByRole('textbox', { name: 'Write a comment' });
    fireEvent.change(comment, { target: { value: '   ' } });
    fireEvent.keyDown(comment, { key: 'Enter' });

    fireEvent.click(screen.getByRole('button', { name: 'Edit description' }));
    const editor = screen.getByRole('textbox', { name: 'Description' });
    fireEvent.change(editor, { target: { value: 'Changed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('First draft')).toBeTruthy();
    // Reads only (the task, and its board for the members): nothing was written.
    expect(requestsOf(fetchMock).filter((r) => !r.route.startsWith('GET '))).toEqual([]);
  });
});

describe('Taskboard', () => {
  it('welcomes, then shows the board with its tasks and applies a live board change', async () => {
    const task: Task = aTask();
    mockFetch({
      'GET /api/me': () => ({ json: meResponse }),
      'GET /api/boards': () => ({ json: [aBoard()] }),
      'GET /api/boards/b1': () => ({
        json: aBoardDetail({ lists: [aList({ tasks: [task] }), ...LISTS.slice(1)] }),
      }),
      'GET /api/tasks/notifications': () => ({ json: [] }),
    });
    renderAt('/task', <Taskboard />);

    expect(screen.getByText('Pick a section from the sidebar to get started.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Boards' }));
    expect(await screen.findByRole('region', { name: 'To do' })).toBeTruthy();
    expect((await screen.findAllByRole('button', { name: 'Write the report' })).length).toBeGreaterThan(0);

    await waitFor(() => expect(openedSockets.filter((s) => s.namespace === '/tasks')).toHaveLength(2));
    const socket = openedSockets.filter((s) => s.namespace === '/tasks')[1];
    socket?.serverConnect();
    expect(socket?.sent('watchBoard')).toEqual([{ boardId: 'b1' }]);
    socket?.push('boardChanged', { boardId: 'b1', rev: 2, taskId: 't1', task: null });
    await waitFor(() => expect(screen.getAllByText('No tasks available')).toHaveLength(2));
  });
});
