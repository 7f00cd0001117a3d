import { type ReactNode, useMemo } from 'react';
import { cn } from '../../lib/cn.ts';
import { type Block, type Inline, parseMarkdown } from './parse.ts';
import { PlainTextFallback } from './plain-text-fallback.tsx';

/**
 * A message in a list of messages (pins, saved messages): its formatting as the chat shows it, in a
 * few lines, with nothing to click inside — each item is itself a link, and a link in a link is no
 * link at all (links show as their text, mentions as @Name, code inline).
 */
export function MarkdownExcerpt({ source, className }: { source: string; className?: string }) {
  return (
    <PlainTextFallback text={source} className={className}>
      <ExcerptTree source={source} className={className} />
    </PlainTextFallback>
  );
}

function ExcerptTree({ source, className }: { source: string; className?: string | undefined }) {
  const blocks = useMemo(() => parseMarkdown(source), [source]);
  return <span className={cn('line-clamp-3 break-words', className)}>{flatBlocks(blocks)}</span>;
}

function flatBlocks(blocks: Block[]): ReactNode[] {
  return blocks.map((block, i) => {
    const key = `${block.type}-${i}`;
    const gap = i > 0 ? ' ' : '';
    switch (block.type) {
      case 'paragraph':
        return (
          <span key={key}>
            {gap}
            {flatInline(block.children)}
          </span>
        );
      case 'code':
        return (
          <span key={key}>
            {gap}
            <code className="rounded bg-slate-100 px-1 font-mono text-[0.85em] dark:bg-slate-800">
              {block.text}
            </code>
          </span>
        );
      case 'quote':
        return (
          <span key={key} className="text-slate-600 dark:text-slate-400">
            {gap}
            {flatBlocks(block.children)}
          </span>
        );
      case 'list':
        return (
          <span key={key}>
            {gap}
            {block.items.map((item, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: list items have no identity but their place
              <span key={j}>
                {j > 0 ? ' · ' : ''}
                {flatInline(item)}
              </span>
            ))}
          </span>
        );
      default:
        return null;
    }
  });
}

function flatInline(items: Inline[]): ReactNode[] {
  return items.map((item, i) => {
    const key = i; // inline runs have no identity but their place
    switch (item.type) {
      case 'text':
        return item.text;
      case 'strong':
        return <strong key={key}>{flatInline(item.children)}</strong>;
      case 'em':
        return <em key={key}>{flatInline(item.children)}</em>;
      case 'underline':
        return <u key={key}>{flatInline(item.children)}</u>;
      case 'strike':
        return <s key={key}>{flatInline(item.children)}</s>;
      case 'code':
        return (
          <code key={key} className="rounded bg-slate-100 px-1 font-mono text-[0.85em] dark:bg-slate-800">
            {item.text}
          </code>
        );
      case 'link':
        return <span key={key}>{flatInline(item.children)}</span>;
      case 'mention':
        return <span key={key} className="font-semibold">{`@${item.name}`}</span>;
      case 'break':
        return ' ';
      default:
        return null;
    }
  });
}
