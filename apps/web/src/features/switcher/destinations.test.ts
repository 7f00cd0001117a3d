import type { SwitcherData } from '@cohort/shared/switcher';
import { describe, expect, it } from 'vitest';
import { destinationsOf, rankDestinations } from './destinations.ts';

const data: SwitcherData = {
  channels: [
    { _id: 'c1', name: 'general', workspace: { _id: 'w1', name: 'Acme' }, private: false, archived: false },
    {
      _id: 'c2',
      name: 'design-reviews',
      workspace: { _id: 'w2', name: 'Beta Labs' },
      private: true,
      archived: false,
    },
    {
      _id: 'c3',
      name: 'general',
      workspace: { _id: 'w2', name: 'Beta Labs' },
      private: false,
      archived: false,
    },
    { _id: 'c4', name: 'genealogy', workspace: { _id: 'w1', name: 'Acme' }, private: false, archived: true },
  ],
  people: [{ _id: 'p1', name: 'Grace Hopper', email: 'grace@example.com' }],
  workspaces: [
    { _id: 'w1', name: 'Acme' },
    { _id: 'w2', name: 'Beta Labs' },
  ],
};
const items = destinationsOf(data);

describe('destinationsOf', () => {
  it('turns channels, people and workspaces into links', () => {
    expect(items.map((d) => d.href)).toEqual([
      '/workspace/Acme/channel/c1',
      '/workspace/Beta%20Labs/channel/c2',
      '/workspace/Beta%20Labs/channel/c3',
      '/workspace/Acme/channel/c4',
      '/chat?with=grace%40example.com',
      '/workspace/Acme',
      '/workspace/Beta%20Labs',
    ]);
  });
});

describe('rankDestinations', () => {
  it('lists the recent ones first without a query, most recent first', () => {
    const ranked = rankDestinations(items, '', ['workspace:beta labs', 'channel:c3', 'channel:gone']);
    expect(ranked.map((d) => d.key).slice(0, 3)).toEqual(['workspace:beta labs', 'channel:c3', 'channel:c1']);
    expect(rankDestinations(items, '', [], 2)).toHaveLength(2);
  });

  it('ranks by match, breaks ties by recency, and puts archived channels lower', () => {
    expect(rankDestinations(items, 'gen', []).map((d) => d.key)).toEqual([
      'channel:c1',
      'channel:c3',
      'channel:c4',
    ]);
    expect(rankDestinations(items, '#gen', ['channel:c3']).map((d) => d.key)).toEqual([
      'channel:c3',
      'channel:c1',
      'channel:c4',
    ]);
    const dsrv = rankDestinations(items, 'dsrv', []);
    expect(dsrv.map((d) => d.key)).toEqual(['channel:c2']);
    expect(dsrv[0]?.labelMatch).toEqual([0, 2, 7, 9]);
  });

  it("matches a person's e-mail too, and highlights where it matched", () => {
    const byMail = rankDestinations(items, 'grace@ex', []);
    expect(byMail.map((d) => d.key)).toEqual(['person:grace@example.com']);
    expect(byMail[0]?.detailMatch).toHaveLength(8);
    expect(rankDestinations(items, 'hop', [])[0]).toMatchObject({
      key: 'person:grace@example.com',
      labelMatch: [6, 7, 8],
    });
  });

  it('answers at most the limit', () => {
    expect(rankDestinations(items, 'a', [], 3)).toHaveLength(3);
  });
});
