import type { ChannelSummary } from '@cohort/shared/summaries';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/render.tsx';
import { SummaryPanel } from './summary-panel.tsx';

const PATH = '/api/workspaces/Apollo/channels/c1/summary';

function aSummary(overrides: Partial<ChannelSummary> = {}): ChannelSummary {
  return {
    summary: [
      '3 messages from 2 participants: Ada Admin (2), bob (1).',
      '',
      'Decisions:',
      "- Ada Admin: Let's go with PostgreSQL.",
      '',
      'Action items:',
      "- bob: I'll write the migration.",
    ].join('\n'),
    messageCount: 3,
    participants: [
      { _id: 'u1', email: 'ada@example.com', name: 'Ada Admin' },
      { _id: 'u2', email: 'bob@example.com', name: '' },
    ],
    from: '2026-01-04T09:00:00.000Z',
    to: '2026-01-05T09:00:00.000Z',
    timeframe: 24,
    engine: 'builtin',
    ...overrides,
  };
}

type Reply = { status: number; json: unknown };

/** A fetch whose answers the test releases one by one, recording each requested timeframe. */
function controlledFetch() {
  const requested: string[] = [];
  const waiting: Array<(reply: Reply) => void> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== PATH) throw new Error(`Unexpected request ${url.pathname}`);
    requested.push(url.searchParams.get('timeframe') ?? '');
    const reply = await new Promise<Reply>((resolve) => waiting.push(resolve));
    return new Response(JSON.stringify(reply.json), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  const answer = async (reply: Reply) => {
    await waitFor(() => expect(waiting.length).toBeGreaterThan(0));
    waiting.shift()?.(reply);
  };
  return { requested, answer, fetchMock };
}

const select = () => screen.getByRole('combobox', { name: 'Timeframe' }) as HTMLSelectElement;
const render = (props: Partial<Parameters<typeof SummaryPanel>[0]> = {}) => {
  const onClose = vi.fn();
  renderAt('/', <SummaryPanel workspaceName="Apollo" channelId="c1" onClose={onClose} {...props} />);
  return { onClose };
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SummaryPanel', () => {
  it('offers the spec timeframes, last 24 hours by default, and loads that summary', async () => {
    const server = controlledFetch();
    render();
    expect(screen.getByRole('region', { name: 'Channel Conversation Summary' })).toBeTruthy();
    expect([...select().options].map((o) => [o.value, o.textContent])).toEqual([
      ['6', 'Last 6 hours'],
      ['12', 'Last 12 hours'],
      ['24', 'Last 24 hours'],
      ['48', 'Last 2 days'],
      ['168', 'Last week'],
    ]);
    expect(select().value).toBe('24');
    expect(await screen.findByText('Generating summary...')).toBeTruthy();
    expect(select().disabled).toBe(true);

    await server.answer({ status: 200, json: aSummary() });
    expect(await screen.findByText('Decisions:')).toBeTruthy();
    expect(server.requested).toEqual(['24']);
    expect(screen.queryByText('Generating summary...')).toBeNull();
    expect(select().disabled).toBe(false);
    // Bullet lines become a list; the rest paragraphs.
    const items = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toEqual(["Ada Admin: Let's go with PostgreSQL.", "bob: I'll write the migration."]);
    expect(screen.getByText('3 messages from 2 participants: Ada Admin (2), bob (1).')).toBeTruthy();
    // Count and participants (the e-mail's local part when there is no name).
    expect(screen.getByText(/3 messages · Participants: Ada Admin, bob/)).toBeTruthy();
  });

  it('collapses to its header row and expands again, keeping the summary', async () => {
    const server = controlledFetch();
    render();
    await server.answer({ status: 200, json: aSummary() });
    await screen.findByText('Decisions:');
    const toggle = screen.getByRole('button', { name: 'Collapse' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const body = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(body?.hidden).toBe(false);
    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Expand' }).getAttribute('aria-expanded')).toBe('false');
    expect(body?.hidden).toBe(true);
    expect(screen.queryByText('Decisions:')).not.toBeNull();
    // The header row stays usable while collapsed.
    expect(select().disabled).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Expand' }));
    expect(body?.hidden).toBe(false);
    expect(server.requested).toEqual(['24']);
  });

  it('refetches when the timeframe changes, with the select disabled while loading', async () => {
    const server = controlledFetch();
    render();
    await server.answer({ status: 200, json: aSummary() });
    await screen.findByText('Decisions:');
    await userEvent.selectOptions(select(), 'Last week');
    expect(await screen.findByText('Generating summary...')).toBeTruthy();
    expect(select().disabled).toBe(true);
    expect(select().value).toBe('168');
    await server.answer({
      status: 200,
      json: aSummary({ timeframe: 168, messageCount: 9, summary: 'A week of talk.' }),
    });
    expect(await screen.findByText('A week of talk.')).toBeTruthy();
    expect(server.requested).toEqual(['24', '168']);
  });

  it('says so when there is nothing to summarize', async () => {
    const server = controlledFetch();
    render();
    await server.answer({ status: 200, json: aSummary({ summary: '', messageCount: 0, participants: [] }) });
    expect(await screen.findByText('No recent conversation to summarize')).toBeTruthy();
  });

  it('shows the failure with Try Again, "Retrying..." while it retries, then the summary', async () => {
    const server = controlledFetch();
    render();
    await server.answer({ status: 500, json: { message: 'Internal server error' } });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to fetch summary. Please try again.');
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    const retrying = await screen.findByRole('button', { name: 'Retrying...' });
    expect((retrying as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Generating summary...')).toBeTruthy();
    await server.answer({ status: 200, json: aSummary() });
    expect(await screen.findByText('Decisions:')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(server.requested).toEqual(['24', '24']);
  });

  it('explains a rate limit under the failure message', async () => {
    const server = controlledFetch();
    render();
    await server.answer({
      status: 429,
      json: { message: 'Too many summary requests (10 per minute at most).' },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to fetch summary. Please try again.');
    expect(alert.textContent).toContain('Too many summary requests');
  });

  it('shows the summary as text, never as HTML', async () => {
    const server = controlledFetch();
    const { container } = renderAt(
      '/',
      <SummaryPanel workspaceName="Apollo" channelId="c1" onClose={() => {}} />,
    );
    const hostile = '<img src=x onerror="alert(1)"> and <b>bold</b>';
    await server.answer({ status: 200, json: aSummary({ summary: `Intro\n- ${hostile}` }) });
    expect(await screen.findByText(hostile)).toBeTruthy();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
  });

  it('notes when the built-in summarizer stood in for the model', async () => {
    const server = controlledFetch();
    render();
    await server.answer({ status: 200, json: aSummary({ engine: 'builtin (llm timeout)' }) });
    expect(await screen.findByText('The AI model took too long; this is the built-in summary.')).toBeTruthy();
  });

  it('closes with its close button, and fetches nothing without a channel', async () => {
    const server = controlledFetch();
    const { onClose } = render({ channelId: '' });
    await userEvent.click(screen.getByRole('button', { name: 'Close summary' }));
    expect(onClose).toHaveBeenCalledOnce();
    expect(server.fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByText('Generating summary...')).toBeNull();
  });
});
