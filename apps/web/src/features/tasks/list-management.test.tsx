import type { TaskDetail, TaskList } from '@cohort/shared/tasks';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt, requestsOf } from '../../test/render.tsx';
import { BOB, ME, meResponse } from '../workspaces/test-data.ts';
import { ListHeader } from './list-header.tsx';
import { TaskCardModal } from './task-card.tsx';
import { aList } from './test-data.ts';

const list: TaskList = aList();

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('List management', () => {
  it('renames a list inline; a blank name is refused without a request', async () => {
    const fetchMock = mockFetch({
      'PATCH /api/tasklists/l1': (body) => ({
        json: { ...list, name: (body as { title: string }).title, title: (body as { title: string }).title },
      }),
      'GET /api/tasklists': () => ({ json: [] }),
    });
    renderAt('/task', <ListHeader list={list} taskCount={0} />);

    fireEvent.click(screen.getByRole('button', { name: 'Rename list To do' }));
    const input = screen.getByRole('textbox', { name: 'New list name' });
    fireEvent.change(input, { target: { value: '  ' } });
    fireEvent.submit(input);
    expect(screen.getByRole('alert').textContent).toBe('List name cannot be empty.');
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(input, { target: { value: 'Later' } });
    fireEvent.submit(input);
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'New list name' })).toBeNull());
    expect(requestsOf(fetchMock)[0]).toEqual({ route: 'PATCH /api/tasklists/l1', body: { title: 'Later' } });
  });

  it('Escape cancels a rename', () => {
    const fetchMock = mockFetch({});
    renderAt('/task', <ListHeader list={list} taskCount={0} />);
    fireEvent.click(screen.getByRole('button', { name: 'Rename list To do' }));
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'New list name' }), { key: 'Escape' });
    expect(screen.getByRole('heading', { name: 'To do' })).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('deletes an empty list after one confirmation', async () => {
    const fetchMock = mockFetch({
      'DELETE /api/tasklists/l1': () => ({ status: 204 }),
      'GET /api/tasklists': () => ({ json: [] }),
    });
    renderAt('/task', <ListHeader list={list} taskCount={0} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete list To do' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete list "To do"?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/tasklists/l1');
  });

  it('asks again for a list the server says is not empty, then sends force=true', async () => {
    const fetchMock = mockFetch({
      'DELETE /api/tasklists/l1': () => ({
        status: 409,
        json: { message: 'This list still has tasks: delete it with force=true to delete them too' },
      }),
      'GET /api/tasklists': () => ({ json: [] }),
    });
    renderAt('/task', <ListHeader list={list} taskCount={0} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete list To do' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const again = await screen.findByRole('button', { name: 'Delete list and tasks' });
    expect(screen.getByRole('alertdialog').textContent).toContain('still has');
    fetchMock.mockImplementationOnce(async () => new Response(null, { status: 204 }));
    fireEvent.click(again);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    const urls = fetchMock.mock.calls.map(([input]) => String(input));
    expect(urls.slice(0, 2)).toEqual(['/api/tasklists/l1', '/api/tasklists/l1?force=true']);
  });

  it('a list known to hold tasks goes straight to the second question', async () => {
    const fetchMock = mockFetch({ 'DELETE /api/tasklists/l1': () => ({ status: 204 }) });
    renderAt('/task', <ListHeader list={list} taskCount={2} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete list To do' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('alertdialog').textContent).toContain('2 tasks');
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('Assignees panel', () => {
  const task: TaskDetail = {
    _id: 't1',
    title: 'Write the report',
    description: '',
    priority: 'Medium',
    createdBy: ME.email,
    taskListId: 'l1',
    boardId: 'b1',
    attachments: [],
    source: null,
    labels: [],
    checklist: [],
    assignedTo: [],
    dates: { deadline: null },
    comments: [],
    archived: false,
    position: 0,
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:00:00.000Z',
    activity: [
      {
        _id: 'a1',
        action: 'label.added',
        detail: { label: 'urgent' },
        user: { firstName: 'Ada', lastName: 'Lovelace', email: ME.email },
        time: '2025-01-01T10:00:00.000Z',
      },
    ],
  };
  const member = (id: string | null, email: string, status: 'active' | 'invited', firstName = '') => ({
    _id: id,
    email,
    firstName,
    lastName: '',
    role: 'editor',
    status,
  });

  it('offers active colleagues (not me, not invitees) and saves the picked ones; shows the activity', async () => {
    let current = task;
    const fetchMock = mockFetch({
      'GET /api/task/t1': () => ({ json: current }),
      'GET /api/me': () => ({ json: meResponse }),
      'GET /api/workspaces': () => ({ json: [{ name: 'Apollo' }, { name: 'Zeus' }] }),
      'GET /api/workspaces/Apollo/members': () => ({
        json: [member(ME._id, ME.email, 'active', 'Ada'), member(BOB._id, BOB.email, 'active', 'Bob')],
      }),
      'GET /api/workspaces/Zeus/members': () => ({
        json: [member(BOB._id, BOB.email, 'active', 'Bob'), member(null, 'eve@example.com', 'invited')],
      }),
      'PUT /api/tasks/t1/assignees': () => {
        current = {
          ...task,
          assignedTo: [{ _id: BOB._id, firstName: 'Bob', lastName: '', email: BOB.email }],
        };
        return { json: current };
      },
      'GET /api/tasklists': () => ({ json: [] }),
      'GET /api/tasks/assigned': () => ({ json: [] }),
    });
    renderAt('/task', <TaskCardModal taskId="t1" lists={[list]} onClose={() => {}} />);

    const activity = await screen.findByRole('region', { name: 'Activity' });
    expect(activity.textContent).toContain('Ada Lovelace added label urgent');

    fireEvent.click(screen.getByRole('button', { name: 'Assignees' }));
    const bob = await screen.findByRole('checkbox', { name: 'Bob' });
    expect(screen.getAllByRole('checkbox')).toHaveLength(1);
    fireEvent.click(bob);
    await waitFor(() =>
      expect(requestsOf(fetchMock)).toContainEqual({
        route: 'PUT /api/tasks/t1/assignees',
        body: { userIds: [BOB._id] },
      }),
    );
    await waitFor(() =>
      expect((screen.getByRole('checkbox', { name: 'Bob' }) as HTMLInputElement).checked).toBe(true),
    );
  });
});
