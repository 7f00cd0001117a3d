import { TYPING_THROTTLE_MS } from '@cohort/shared/chat.constants';

/** SPEC §9: "X is typing..." for one person, "several are typing..." for more, nothing for none. */
export function typingText(names: string[]): string {
  if (names.length === 0) return '';
  if (names.length === 1) return `${names[0]} is typing...`;
  return 'several are typing...';
}

/**
 * Decides when to tell the others that this user is typing (SPEC §4 "Typing"): `true` while the input
 * is non-blank, repeated at most once per throttle window so the server's expiry (5 s) never lapses
 * while the user keeps typing; `false` once when the input becomes blank or the message is sent.
 */
export class TypingAnnouncer {
  private announced = false;
  private lastTrueAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly emit: (isTyping: boolean) => void,
    private readonly now: () => number = Date.now,
    private readonly throttleMs = TYPING_THROTTLE_MS,
  ) {}

  /** Call with the input's value on every change. */
  input(value: string): void {
    if (value.trim() === '') {
      this.stop();
      return;
    }
    const now = this.now();
    if (!this.announced || now - this.lastTrueAt >= this.throttleMs) {
      this.announced = true;
      this.lastTrueAt = now;
      this.emit(true);
    }
  }

  /** After sending, on blank input, or when leaving the channel. */
  stop(): void {
    if (!this.announced) return;
    this.announced = false;
    this.lastTrueAt = Number.NEGATIVE_INFINITY;
    this.emit(false);
  }
}
