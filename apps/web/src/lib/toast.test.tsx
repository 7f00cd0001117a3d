import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from './toast.ts';
import { Toaster } from './toaster.tsx';

describe('toast', () => {
  it('shows toasts called before the lazily loaded Toaster mounted, once each', async () => {
    toast.error('First problem');
    toast.success('Then saved');
    render(<Toaster />);
    expect(await screen.findByText('First problem')).toBeTruthy();
    expect(await screen.findByText('Then saved')).toBeTruthy();
    expect(screen.getAllByText('First problem')).toHaveLength(1);
  });
});
