import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PresenceDot } from './presence-dot.tsx';

describe('PresenceDot', () => {
  it('names each status for assistive technology and styles it apart (offline is hollow)', () => {
    render(
      <>
        <PresenceDot status="online" />
        <PresenceDot status="away" />
        <PresenceDot status="offline" />
      </>,
    );
    const online = screen.getByRole('img', { name: 'online' });
    const away = screen.getByRole('img', { name: 'away' });
    const offline = screen.getByRole('img', { name: 'offline' });
    expect(online.className).toContain('bg-emerald-500');
    expect(away.className).toContain('bg-amber-400');
    expect(offline.className).toContain('bg-white');
    expect(offline.getAttribute('title')).toBe('Offline');
  });

  it('shows nothing while the status is unknown or not visible to the viewer', () => {
    const { container } = render(
      <>
        <PresenceDot status={undefined} />
        <PresenceDot status={null} />
      </>,
    );
    expect(container.innerHTML).toBe('');
  });
});
