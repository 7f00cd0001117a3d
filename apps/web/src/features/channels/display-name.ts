/**
 * The name shown for a message's sender (SPEC §3 "Channel message"): the name when the server knows
 * one, else the part of the e-mail before the @, else "unknown".
 */
export function displayName(sender: { name?: string | null; email?: string | null } | null | undefined) {
  const name = sender?.name?.trim();
  if (name) return name;
  const local = sender?.email?.split('@')[0]?.trim();
  return local || 'unknown';
}
