import type { TaskList } from '@cohort/shared/tasks';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/render.tsx';
import { BoardsSection } from './boards-section.tsx';
import { aBoardDetail, aCard, aList } from './test-data.ts';

const TODO = [aCard('a', 'Alpha', 'l1', 0), aCard('b', 'Beta', 'l1', 1), aCard('c', 'Gamma', 'l1', 2)];
const LISTS: TaskList[] = [
  aList({ tasks: TODO }),
  aList({ _id: 'l2', name: 'Done', title: 'Done', position: 1 }),
];

/** A fetch stub for the board (GET /api/boards/b1) that records every write. */
function stubBoard(write: { status: number; json?: unknown } = { status: 200, json: {} }) {
  const writes: Array<{ method: string; path: string; body: unknown }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const url = new URL(String(input), 'http://localhost');
    let json: unknown = {};
    let status = 200;
    if (method === 'GET' && url.pathname === '/api/boards/b1') json = aBoardDetail({ lists: LISTS });
    else {
      writes.push({
        method,
        path: url.pathname,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      });
      status = write.status;
      json = write.json ?? {};
    }
    return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return writes;
}

const announcer = () => screen.getByTestId('dnd-announcer');
const titles = (listName: string) =>
  within(screen.getByRole('region', { name: listName }))
    .queryAllByRole('button', { name: /^(Alpha|Beta|Gamma)$/ })
    .map((b) => b.getAttribute('aria-label'));

async function renderBoard() {
  renderAt('/task', <BoardsSection boardId="b1" search="" onOpenTask={() => {}} />);
  await screen.findByRole('button', { name: 'Alpha' });
  return screen.getByRole('button', { name: 'Move Alpha' });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Board keyboard drag and drop', () => {
  it('Space picks a card up, ArrowDown moves it, Space drops it: PUT position', async () => {
    const writes = stubBoard();
    const handle = await renderBoard();
    handle.focus();
    fireEvent.keyDown(handle, { key: ' ' });
    expect(announcer().textContent).toContain('Picked up Alpha');
    expect(handle.getAttribute('aria-pressed')).toBe('true');

    fireEvent.keyDown(handle, { key: 'ArrowDown' });
    await waitFor(() => expect(titles('To do')).toEqual(['Beta', 'Alpha', 'Gamma']));
    expect(announcer().textContent).toBe('Moved Alpha to To do, position 2 of 3.');

    const moved = screen.getByRole('button', { name: 'Move Alpha' });
    await waitFor(() => expect(document.activeElement).toBe(moved));
    fireEvent.keyDown(moved, { key: ' ' });
    await waitFor(() =>
      expect(writes).toEqual([{ method: 'PUT', path: '/api/tasks/a/position', body: { position: 1 } }]),
    );
  });

  it('ArrowRight takes a card to the next list; Enter drops it there: PUT move with a position', async () => {
    const writes = stubBoard();
    const handle = await renderBoard();
    fireEvent.keyDown(handle, { key: 'Enter' });
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    await waitFor(() => expect(titles('Done')).toEqual(['Alpha']));
    expect(announcer().textContent).toBe('Moved Alpha to Done, position 1 of 1.');
    const moved = screen.getByRole('button', { name: 'Move Alpha' });
    fireEvent.keyDown(moved, { key: 'Enter' });
    await waitFor(() =>
      expect(writes).toEqual([
        { method: 'PUT', path: '/api/tasks/a/move', body: { newTaskListId: 'l2', position: 0 } },
      ]),
    );
  });

  it('Escape cancels: the card goes back and nothing is written', async () => {
    const writes = stubBoard();
    const handle = await renderBoard();
    fireEvent.keyDown(handle, { key: ' ' });
    fireEvent.keyDown(handle, { key: 'ArrowDown' });
    fireEvent.keyDown(handle, { key: 'ArrowDown' });
    await waitFor(() => expect(titles('To do')).toEqual(['Beta', 'Gamma', 'Alpha']));
    fireEvent.keyDown(screen.getByRole('button', { name: 'Move Alpha' }), { key: 'Escape' });
    await waitFor(() => expect(titles('To do')).toEqual(['Alpha', 'Beta', 'Gamma']));
    expect(announcer().textContent).toContain('Move cancelled');
    expect(writes).toEqual([]);
  });

  it('a refused move is rolled back', async () => {
    const writes = stubBoard({ status: 500, json: { message: 'Boom' } });
    const handle = await renderBoard();
    fireEvent.keyDown(handle, { key: ' ' });
    fireEvent.keyDown(handle, { key: 'ArrowDown' });
    await waitFor(() => expect(titles('To do')).toEqual(['Beta', 'Alpha', 'Gamma']));
    fireEvent.keyDown(screen.getByRole('button', { name: 'Move Alpha' }), { key: ' ' });
    await waitFor(() => expect(writes).toHaveLength(1));
    await waitFor(() => expect(titles('To do')).toEqual(['Alpha', 'Beta', 'Gamma']));
    expect(await screen.findByText(/Failed to move Alpha: Boom/)).toBeTruthy();
  });

  it('a list moves right with its handle: PATCH position', async () => {
    const writes = stubBoard();
    await renderBoard();
    const handle = screen.getByRole('button', { name: 'Move To do' });
    fireEvent.keyDown(handle, { key: ' ' });
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    await waitFor(() =>
      expect(
        Array.from(document.querySelectorAll('[data-list-id]')).map((r) => r.getAttribute('aria-label')),
      ).toEqual(['Done', 'To do']),
    );
    expect(announcer().textContent).toBe('Moved list To do to position 2 of 2.');
    fireEvent.keyDown(screen.getByRole('button', { name: 'Move To do' }), { key: ' ' });
    await waitFor(() =>
      expect(writes).toEqual([{ method: 'PATCH', path: '/api/tasklists/l1', body: { position: 1 } }]),
    );
  });
});
