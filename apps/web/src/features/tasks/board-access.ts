import { type BoardMember, boardRoleCan } from '@cohort/shared/boards';
import { displayName } from '@cohort/shared/names';
import { useQuery } from '@tanstack/react-query';
import type { MentionCandidate } from '../../components/composer/mentions.ts';
import { boardQuery } from './boards.queries.ts';

/**
 * What the caller may do on a task's board, and who can be assigned or mentioned there. While the
 * board is unknown (loading, or an older task), editing is offered: the server decides.
 */
export function useBoardAccess(boardId: string | undefined) {
  const board = useQuery({ ...boardQuery(boardId ?? ''), enabled: !!boardId });
  const role = board.data?.role;
  const members: BoardMember[] | undefined = board.data?.members;
  const candidates: MentionCandidate[] | undefined = members?.map((m) => ({
    id: m._id,
    name: displayName(m),
    email: m.email,
  }));
  return {
    board: board.data,
    canEdit: role ? boardRoleCan(role, 'edit') : true,
    canComment: role ? boardRoleCan(role, 'comment') : true,
    members,
    candidates,
  };
}
