/** The taskboard's one search rule, in every view: the task's title contains the words as typed. */
export function matchesSearch(title: string, search: string): boolean {
  const needle = search.trim().toLowerCase();
  return !needle || title.toLowerCase().includes(needle);
}
