/** What a failed task change shows: the server's message when there is one. */
export function errorText(err: unknown) {
  return err instanceof Error ? err.message : String(err);
}
