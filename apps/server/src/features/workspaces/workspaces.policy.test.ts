import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { roleCan, WORKSPACE_PERMISSIONS, type WorkspaceAction } from '@cohort/shared/permissions';
import { WORKSPACE_ROLES } from '@cohort/shared/workspaces';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../http/errors.ts';
import { authorize, canEditChannel, canReadChannel } from './workspaces.policy.ts';

const doc = readFileSync(
  fileURLToPath(new URL('../../../../../docs/permissions.md', import.meta.url)),
  'utf8',
);

/** The rows of the matrix in docs/permissions.md: `| label | \`key\` | non-member | viewer | editor | admin |`. */
function documentedMatrix() {
  const rows = new Map<string, string[]>();
  for (const line of doc.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const key = cells[2]?.match(/^`(\w+)`$/)?.[1];
    if (key && cells.length === 8) rows.set(key, cells.slice(3, 7));
  }
  return rows;
}

describe('the permission matrix', () => {
  it('in docs/permissions.md is exactly the policy table', () => {
    const documented = documentedMatrix();
    expect([...documented.keys()].sort()).toEqual(Object.keys(WORKSPACE_PERMISSIONS).sort());
    for (const [action, [nonMember, ...byRole]] of documented) {
      expect(nonMember, action).toBe('404');
      WORKSPACE_ROLES.forEach((role, i) => {
        expect(byRole[i], `${action} as ${role}`).toBe(
          roleCan(role, action as WorkspaceAction) ? '✓' : '403',
        );
      });
    }
  });

  it('grows with the role: whatever a viewer may do an editor may, and an admin may do everything', () => {
    for (const action of Object.keys(WORKSPACE_PERMISSIONS) as WorkspaceAction[]) {
      if (roleCan('viewer', action)) expect(roleCan('editor', action)).toBe(true);
      if (roleCan('editor', action)) expect(roleCan('admin', action)).toBe(true);
      expect(roleCan('admin', action)).toBe(true);
    }
  });

  it('authorize throws 403 for a role that may not act', () => {
    expect(() => authorize('admin', 'manageMembers')).not.toThrow();
    let error: unknown;
    try {
      authorize('editor', 'manageMembers');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(403);
  });

  it('private channels are readable by listed members only; creators and admins may edit', () => {
    expect(canReadChannel({ isPrivate: false }, false)).toBe(true);
    expect(canReadChannel({ isPrivate: true }, false)).toBe(false);
    expect(canReadChannel({ isPrivate: true }, true)).toBe(true);
    expect(canEditChannel('editor', { createdBy: 'u1' }, 'u1')).toBe(true);
    // A creator demoted to viewer can no longer rename what they made.
    expect(canEditChannel('viewer', { createdBy: 'u1' }, 'u1')).toBe(false);
    expect(canEditChannel('editor', { createdBy: 'u1' }, 'u2')).toBe(false);
    expect(canEditChannel('admin', { createdBy: null }, 'u2')).toBe(true);
  });
});
