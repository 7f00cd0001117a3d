import type { DirectUnread } from '@cohort/shared/reads';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { applyDirectUnread, readKeys } from './reads.queries.ts';

const entry = (lastReadSeq: number, unread: number): DirectUnread =>
  ({ email: 'ada@example.com', name: 'Ada', lastReadSeq, lastSeq: 2, unread }) as DirectUnread;

describe('applyDirectUnread', () => {
  it('a listing fetched before the mark moved, answered after, does not put the old count back', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(readKeys.direct, [entry(0, 2)]);
    // The server's listing: stale for the fetch already on its way, fresh for any fetch after the mark.
    let answerStale: (v: DirectUnread[]) => void = () => {};
    let calls = 0;
    const queryFn = () => {
      calls++;
      return calls === 1
        ? new Promise<DirectUnread[]>((resolve) => {
            answerStale = resolve;
          })
        : Promise.resolve([entry(2, 0)]);
    };
    // Watched, as the navbar's Messages link watches it: its fetch on mount is the one in flight.
    const observer = new QueryObserver(client, { queryKey: readKeys.direct, queryFn });
    const unsubscribe = observer.subscribe(() => {});
    expect(client.isFetching()).toBe(1);

    // The PUT's answer: read up to 2.
    applyDirectUnread(client, entry(2, 0));
    answerStale([entry(0, 2)]);
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));

    expect(client.getQueryData<DirectUnread[]>(readKeys.direct)?.[0]?.unread).toBe(0);
    unsubscribe();
    client.clear();
  });
});
