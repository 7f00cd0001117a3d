import type { ActivityState } from '@cohort/shared/presence';
import { HIDDEN_IDLE_AFTER_MS, IDLE_AFTER_MS } from '@cohort/shared/presence.constants';

export interface ActivityOptions {
  idleAfterMs?: number;
  hiddenIdleAfterMs?: number;
}

const INPUT_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const;
/** Input more often than this only counts once (pointermove fires constantly). */
const INPUT_THROTTLE_MS = 1000;

/**
 * Whether the person is at this tab: idle after `idleAfterMs` without keyboard, pointer or touch
 * input, or after the page has been hidden for `hiddenIdleAfterMs`; active again on input or when
 * the page shows. `onChange` hears transitions only.
 */
export function watchActivity(onChange: (state: ActivityState) => void, options: ActivityOptions = {}) {
  const idleAfterMs = options.idleAfterMs ?? IDLE_AFTER_MS;
  const hiddenIdleAfterMs = options.hiddenIdleAfterMs ?? HIDDEN_IDLE_AFTER_MS;
  let state: ActivityState = 'active';
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastInput = 0;

  const set = (next: ActivityState) => {
    if (next === state) return;
    state = next;
    onChange(next);
  };
  const arm = () => {
    clearTimeout(timer);
    const hidden = document.visibilityState === 'hidden';
    timer = setTimeout(() => set('idle'), hidden ? hiddenIdleAfterMs : idleAfterMs);
  };
  const onInput = () => {
    const now = Date.now();
    if (
      document.visibilityState === 'hidden' ||
      (state === 'active' && now - lastInput < INPUT_THROTTLE_MS)
    ) {
      return;
    }
    lastInput = now;
    set('active');
    arm();
  };
  const onVisibility = () => {
    if (document.visibilityState !== 'hidden') set('active');
    arm();
  };

  for (const event of INPUT_EVENTS) window.addEventListener(event, onInput, { passive: true });
  document.addEventListener('visibilitychange', onVisibility);
  if (document.visibilityState === 'hidden') state = 'idle';
  arm();

  return {
    current: () => state,
    stop() {
      clearTimeout(timer);
      for (const event of INPUT_EVENTS) window.removeEventListener(event, onInput);
      document.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
