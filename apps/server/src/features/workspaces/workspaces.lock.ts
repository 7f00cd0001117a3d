import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { workspaces } from '../../db/schema.ts';
import { type WorkspaceRow, workspaceNotFound } from './workspaces.access.ts';

export type { Tx };

/**
 * Takes the workspace row lock: membership changes of one workspace (adding, accepting, leaving,
 * removing, role changes) run one at a time, so "one membership" and "one admin left" hold.
 */
export async function lockWorkspace(
  tx: Tx,
  workspaceId: string,
  mode: 'update' | 'share' = 'update',
): Promise<WorkspaceRow> {
  const [row] = await tx.select().from(workspaces).where(eq(workspaces.id, workspaceId)).for(mode);
  if (!row) throw workspaceNotFound();
  return row;
}
