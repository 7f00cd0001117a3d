import { type ReactNode, useEffect, useState } from 'react';

type Highlighter = typeof import('./highlight.ts');
let loading: Promise<Highlighter> | undefined;
/** The highlighter (lowlight and a few grammars) loads on the first code block, not with the page. */
const loadHighlighter = () => {
  loading ??= import('./highlight.ts');
  return loading;
};

/** A fenced code block: plain text at once, coloured tokens once the highlighter has loaded. */
export function CodeBlock({ code, lang }: { code: string; lang: string }) {
  const [highlighted, setHighlighted] = useState<ReactNode | null>(null);
  useEffect(() => {
    let live = true;
    loadHighlighter()
      .then(({ highlightToReact }) => {
        if (live) setHighlighted(highlightToReact(code, lang));
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [code, lang]);
  return (
    <pre className="hljs max-w-full overflow-x-auto rounded-md bg-slate-900 p-2 font-mono text-xs leading-relaxed text-slate-100">
      <code data-lang={lang || undefined}>{highlighted ?? code}</code>
    </pre>
  );
}
