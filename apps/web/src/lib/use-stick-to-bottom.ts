import { useCallback, useLayoutEffect, useRef, useState } from 'react';

const NEAR_BOTTOM_PX = 48;
const NEAR_TOP_PX = 120;

interface StickToBottomOptions {
  /** Key of the first item shown: when it changes with the last unchanged, older items were prepended. */
  firstKey: string | undefined;
  /** Key of the last item shown: when it changes, something new arrived at the bottom. */
  lastKey: string | undefined;
  /**
   * The newest item was just sent from here: always bring it into view. (Not any own message: newer
   * history loaded after a linked message may end with one, and must not carry the reader away.)
   */
  lastJustSent: boolean;
  /** Called when the reader scrolls near the top (infinite scroll for older history). */
  onReachTop?: () => void;
  /** The element id of an item to show instead of the bottom (a search hit), once it is there. */
  anchorId?: string | undefined;
}

/**
 * Keeps a scrolling message list at its newest item (SPEC §2: "scrolls smoothly to the latest message
 * on each change"), except while the reader has scrolled up to read history: then new items only
 * raise a "new messages" flag, and prepended history keeps the reader's place.
 *
 * "Scrolled up" is inferred from the direction of the reader's own scrolling, not from the distance to
 * the bottom: a smooth scroll in progress or a list that just grew is far from the bottom too, but the
 * reader did not ask to leave it.
 */
export function useStickToBottom<T extends HTMLElement>({
  firstKey,
  lastKey,
  lastJustSent,
  onReachTop,
  anchorId,
}: StickToBottomOptions) {
  const anchored = useRef<string | undefined>(undefined);
  const ref = useRef<T>(null);
  const stick = useRef(true);
  const lastTop = useRef(0);
  const previous = useRef<{ firstKey?: string; lastKey?: string; height: number }>({ height: 0 });
  const [hasNew, setHasNew] = useState(false);

  const scrollToBottom = useCallback((behavior: ScrollBehavior = 'smooth') => {
    const el = ref.current;
    if (!el) return;
    stick.current = true;
    setHasNew(false);
    // happy-dom and old engines lack scrollTo with options; setting scrollTop jumps instead.
    if (typeof el.scrollTo === 'function') el.scrollTo({ top: el.scrollHeight, behavior });
    else el.scrollTop = el.scrollHeight;
  }, []);

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const top = el.scrollTop;
    // The event of a jump made here (to an anchored message, or the first page's bottom) is not the
    // reader scrolling: an anchor near the bottom must not turn following back on, or the newer
    // history arriving after it would carry the reader away from it.
    const ownJump = Math.abs(top - lastTop.current) < 1;
    if (top < lastTop.current - 2) stick.current = false;
    if (!ownJump && el.scrollHeight - top - el.clientHeight <= NEAR_BOTTOM_PX) {
      stick.current = true;
      setHasNew(false);
    }
    lastTop.current = top;
    // The height older history is measured against when it is prepended (the layout effect reads
    // it only when the list's ends move; in between, images and reactions may have grown the list).
    previous.current.height = el.scrollHeight;
    if (top <= NEAR_TOP_PX) onReachTop?.();
  }, [onReachTop]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const prev = previous.current;
    const anchorPending = anchorId !== undefined && anchored.current !== anchorId;
    // The list re-renders with everything around it (a sidebar counter, a reaction): a commit that
    // moved neither end of the list and has no anchor to reach reads no layout, which would force the
    // browser to lay the page out once per commit instead of once per frame (issue 19).
    if (lastKey === prev.lastKey && firstKey === prev.firstKey && !anchorPending) return;
    if (lastKey !== prev.lastKey) {
      if (prev.lastKey === undefined) {
        // The first page: start at the bottom without an animation from the top.
        el.scrollTop = el.scrollHeight;
        stick.current = true;
      } else if (stick.current || lastJustSent) {
        scrollToBottom('smooth');
      } else {
        setHasNew(true);
      }
    } else if (firstKey !== prev.firstKey && prev.height > 0) {
      // Older history was added above: keep the reader's place instead of jumping.
      el.scrollTop += el.scrollHeight - prev.height;
    }
    if (anchorPending && anchorId) {
      // Opened at a message: centre it once it is rendered, and stop following the bottom so the
      // newer history arriving after it does not carry the reader away.
      const target = el.querySelector<HTMLElement>(`[id="${CSS.escape(anchorId)}"]`);
      if (target) {
        anchored.current = anchorId;
        stick.current = false;
        const offset = target.getBoundingClientRect().top - el.getBoundingClientRect().top;
        el.scrollTop += offset - el.clientHeight / 2 + target.offsetHeight / 2;
      }
    }
    lastTop.current = el.scrollTop;
    previous.current = { firstKey, lastKey, height: el.scrollHeight };
  });

  return { ref, onScroll, hasNew, scrollToBottom };
}
