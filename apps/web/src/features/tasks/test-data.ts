import type { Board, BoardDetail, BoardMember } from '@cohort/shared/boards';
import type { Task, TaskDetail, TaskList } from '@cohort/shared/tasks';

/** Fixtures for the taskboard's tests (boards, lists and tasks with every required field). */
export function aTask(overrides: Partial<TaskDetail> = {}): TaskDetail {
  return {
    _id: 't1',
    title: 'Write the report',
    description: 'First draft',
    priority: 'Medium',
    createdBy: 'ada@example.com',
    taskListId: 'l1',
    boardId: 'b1',
    labels: [],
    checklist: [],
    assignedTo: [],
    dates: { deadline: null },
    comments: [],
    attachments: [],
    source: null,
    archived: false,
    position: 0,
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:00:00.000Z',
    activity: [],
    ...overrides,
  };
}

/** A board's card (no activity). */
export function aCard(id: string, title: string, taskListId: string, position: number): Task {
  const { activity: _activity, ...task } = aTask({ _id: id, title, taskListId, position, description: '' });
  return task;
}

export function aList(overrides: Partial<TaskList> = {}): TaskList {
  return {
    _id: 'l1',
    name: 'To do',
    title: 'To do',
    createdBy: 'ada@example.com',
    boardId: 'b1',
    position: 0,
    cards: [],
    tasks: [],
    ...overrides,
  };
}

export function aBoard(overrides: Partial<Board> = {}): Board {
  return {
    _id: 'b1',
    title: 'Personal',
    workspace: null,
    role: 'owner',
    createdAt: '2025-01-01T10:00:00.000Z',
    ...overrides,
  };
}

export const ADA_MEMBER: BoardMember = {
  _id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  role: 'owner',
};

export function aBoardDetail(overrides: Partial<BoardDetail> = {}): BoardDetail {
  return { ...aBoard(), rev: 1, lists: [], members: [ADA_MEMBER], ...overrides };
}
