import type { EmblaCarouselType } from 'embla-carousel';
import {
  ChartColumn,
  ChevronLeft,
  ChevronRight,
  Hash,
  type LucideIcon,
  MessageSquare,
  Pause,
  Play,
  Plug,
  ShieldCheck,
  SlidersHorizontal,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

/** SPEC §9: a new slide every 3000 ms, looping. */
export const AUTOPLAY_DELAY_MS = 3000;

const features: Array<{ title: string; text: string; icon: LucideIcon }> = [
  {
    title: 'Channels',
    text: 'Organise conversations by topic, project or team, public or private.',
    icon: Hash,
  },
  {
    title: 'Messaging',
    text: 'Real-time chat with typing indicators and direct messages by e-mail.',
    icon: MessageSquare,
  },
  {
    title: 'Integrations',
    text: 'Link code repositories and track pull requests and issues next to your chat.',
    icon: Plug,
  },
  {
    title: 'Analytics',
    text: 'Collaboration metrics, milestone tracking and team synergy analysis.',
    icon: ChartColumn,
  },
  {
    title: 'Security',
    text: 'Hashed passwords, secure sessions and roles for every workspace member.',
    icon: ShieldCheck,
  },
  {
    title: 'Customization',
    text: 'Shape workspaces, channels and task boards around the way you work.',
    icon: SlidersHorizontal,
  },
];

const controlClasses =
  'flex size-10 items-center justify-center rounded-full border border-slate-300 bg-white text-slate-700 shadow-sm ' +
  'hover:bg-slate-50 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

function prefersReducedMotion() {
  return (
    typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true
  );
}

/**
 * Embla and its autoplay plugin (~9 KiB of gzip), fetched once the slides are on screen instead of with
 * the landing page's chunk (issue 21). Until it arrives the slides show as they do on first paint
 * (slide 1 at the start) and the buttons do nothing, as before the carousel's first effect ran.
 */
function useCarousel() {
  const viewportRef = useRef<HTMLDivElement>(null);
  const [embla, setEmbla] = useState<EmblaCarouselType>();
  useEffect(() => {
    let api: EmblaCarouselType | undefined;
    let cancelled = false;
    Promise.all([import('embla-carousel'), import('embla-carousel-autoplay')]).then(
      ([{ default: EmblaCarousel }, { default: Autoplay }]) => {
        if (cancelled || !viewportRef.current) return;
        // Autoplay's own hover/focus handling would restart a carousel the user paused; we decide here instead.
        api = EmblaCarousel(viewportRef.current, { loop: true, align: 'start' }, [
          Autoplay({
            delay: AUTOPLAY_DELAY_MS,
            playOnInit: false,
            stopOnInteraction: false,
            stopOnFocusIn: false,
            stopOnMouseEnter: false,
          }),
        ]);
        setEmbla(api);
      },
      () => {
        // Not fetched (offline): the slides stay as they are, still readable one by one.
      },
    );
    return () => {
      cancelled = true;
      api?.destroy();
    };
  }, []);
  return [viewportRef, embla] as const;
}

export function FeaturesCarousel() {
  const [viewportRef, embla] = useCarousel();
  const [selected, setSelected] = useState(0);
  const [userPaused, setUserPaused] = useState(prefersReducedMotion);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const shouldPlay = !userPaused && !hovered && !focused;
  const shouldPlayRef = useRef(shouldPlay);
  shouldPlayRef.current = shouldPlay;

  useEffect(() => {
    if (!embla) return;
    const onSelect = () => setSelected(embla.selectedScrollSnap());
    // A drag restarts autoplay inside the plugin; keep it stopped if it should be.
    const onPointerUp = () => {
      if (!shouldPlayRef.current) embla.plugins().autoplay?.stop();
    };
    onSelect();
    embla.on('select', onSelect).on('reInit', onSelect).on('pointerUp', onPointerUp);
    return () => {
      embla.off('select', onSelect).off('reInit', onSelect).off('pointerUp', onPointerUp);
    };
  }, [embla]);

  useEffect(() => {
    const autoplay = embla?.plugins().autoplay;
    if (!autoplay) return;
    if (shouldPlay) autoplay.play();
    else autoplay.stop();
  }, [embla, shouldPlay]);

  return (
    <section
      // biome-ignore lint/a11y/noRedundantRoles: the APG carousel pattern sets role="region" explicitly.
      role="region"
      aria-roledescription="carousel"
      aria-label="Features"
      data-selected-index={selected}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="mb-6 flex items-center justify-end gap-2">
        <button
          type="button"
          className={controlClasses}
          aria-label={userPaused ? 'Start automatic slide show' : 'Stop automatic slide show'}
          onClick={() => setUserPaused((paused) => !paused)}
        >
          {userPaused ? (
            <Play aria-hidden="true" className="size-4" />
          ) : (
            <Pause aria-hidden="true" className="size-4" />
          )}
        </button>
        <button
          type="button"
          className={controlClasses}
          aria-label="Previous slide"
          onClick={() => embla?.scrollPrev()}
        >
          <ChevronLeft aria-hidden="true" className="size-5" />
        </button>
        <button
          type="button"
          className={controlClasses}
          aria-label="Next slide"
          onClick={() => embla?.scrollNext()}
        >
          <ChevronRight aria-hidden="true" className="size-5" />
        </button>
      </div>
      <div ref={viewportRef} className="overflow-hidden">
        {/* SPEC §9: 1 card under 768 px, 2 from 768, 3 from 1024; gaps 10/20/30 px (padding + negative margin). */}
        <div className="-ml-[10px] flex touch-pan-y md:-ml-[20px] lg:-ml-[30px]">
          {features.map(({ title, text, icon: Icon }, index) => (
            // biome-ignore lint/a11y/useSemanticElements: the APG carousel pattern makes each slide role="group", not a form fieldset.
            <div
              key={title}
              role="group"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${features.length}`}
              className="min-w-0 shrink-0 grow-0 basis-full pl-[10px] md:basis-1/2 md:pl-[20px] lg:basis-1/3 lg:pl-[30px]"
            >
              <article className="h-full rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
                <span className="flex size-12 items-center justify-center rounded-xl bg-indigo-100 text-indigo-700">
                  <Icon aria-hidden="true" className="size-6" />
                </span>
                <h3 className="mt-6 text-lg font-semibold text-slate-900">{title}</h3>
                <p className="mt-2 text-slate-600">{text}</p>
              </article>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
