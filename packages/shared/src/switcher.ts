import { z } from 'zod';

export * from './switcher.constants.ts';

/**
 * `GET /api/switcher` → `SwitcherData`: every destination the quick switcher (Ctrl/Cmd+K) and the
 * search box's suggestions offer, in one answer the client caches and matches locally:
 *
 * - `channels`: the channels the caller may read in all their workspaces (private ones only when
 *   listed in them; a workspace requiring two-factor sign-in only once they have it), archived ones
 *   marked. The ones the caller is in come first, then by name; at most `SWITCHER_MAX_CHANNELS`.
 * - `people`: everyone sharing a workspace with the caller (never the caller), by name; at most
 *   `SWITCHER_MAX_PEOPLE`.
 * - `workspaces`: the caller's workspaces, by name; at most `SWITCHER_MAX_WORKSPACES`.
 */

export const switcherChannel = z.object({
  _id: z.string(),
  name: z.string(),
  workspace: z.object({ _id: z.string(), name: z.string() }),
  private: z.boolean(),
  archived: z.boolean(),
});
export type SwitcherChannel = z.infer<typeof switcherChannel>;

export const switcherPerson = z.object({
  _id: z.string(),
  /** `displayName` of the person (names.ts). */
  name: z.string(),
  /** Where their direct conversation opens (`/chat?with=`). */
  email: z.string(),
});
export type SwitcherPerson = z.infer<typeof switcherPerson>;

export const switcherWorkspace = z.object({ _id: z.string(), name: z.string() });
export type SwitcherWorkspace = z.infer<typeof switcherWorkspace>;

export const switcherData = z.object({
  channels: z.array(switcherChannel),
  people: z.array(switcherPerson),
  workspaces: z.array(switcherWorkspace),
});
export type SwitcherData = z.infer<typeof switcherData>;
