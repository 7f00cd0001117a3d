import { highlight } from './fuzzy.ts';

/** A text with the matched characters in <mark> (as text, never HTML). */
export function Marked({ text, positions }: { text: string; positions: readonly number[] }) {
  if (positions.length === 0) return <>{text}</>;
  return (
    <>
      {highlight(text, positions).map((s, i) =>
        s.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the segments are a fixed sequence per render
          <mark key={i} className="rounded-sm bg-amber-200 text-slate-900">
            {s.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}
