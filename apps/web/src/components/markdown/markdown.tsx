import { type ReactNode, useMemo } from 'react';
import { cn } from '../../lib/cn.ts';
import { PersonName } from '../ui/person-name.tsx';
import { CodeBlock } from './code-block.tsx';
import { type Block, type Inline, parseMarkdown } from './parse.ts';
import { PlainTextFallback } from './plain-text-fallback.tsx';

interface MarkdownProps {
  source: string;
  /** Inside an own (dark) bubble: lighter code and link colours. */
  inverted?: boolean;
  className?: string;
}

/**
 * A chat message as safe Markdown: parsed to a tree and rendered as React elements only (no
 * `dangerouslySetInnerHTML`), so HTML in a message is shown as the literal text it is. Should
 * parsing or rendering ever throw, the message is shown as plain text rather than breaking the page.
 */
export function Markdown({ source, inverted = false, className }: MarkdownProps) {
  return (
    <PlainTextFallback text={source} className={className}>
      <MarkdownTree source={source} inverted={inverted} className={className} />
    </PlainTextFallback>
  );
}

function MarkdownTree({ source, inverted = false, className }: MarkdownProps) {
  const blocks = useMemo(() => parseMarkdown(source), [source]);
  return <div className={cn('space-y-1.5 break-words', className)}>{renderBlocks(blocks, inverted)}</div>;
}

function renderBlocks(blocks: Block[], inverted: boolean): ReactNode[] {
  return blocks.map((block, i) => {
    const key = `${block.type}-${i}`;
    switch (block.type) {
      case 'paragraph':
        return (
          <p key={key} className="whitespace-pre-wrap">
            {renderInline(block.children, inverted)}
          </p>
        );
      case 'code':
        return <CodeBlock key={key} code={block.text} lang={block.lang} />;
      case 'quote':
        return (
          <blockquote
            key={key}
            className={cn(
              'border-l-4 pl-2',
              inverted ? 'border-indigo-300 text-indigo-50' : 'border-slate-300 text-slate-700',
            )}
          >
            {renderBlocks(block.children, inverted)}
          </blockquote>
        );
      case 'list': {
        const items = block.items.map((item, j) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: list items have no identity but their place
          <li key={j}>{renderInline(item, inverted)}</li>
        ));
        return block.ordered ? (
          <ol key={key} className="list-decimal pl-5">
            {items}
          </ol>
        ) : (
          <ul key={key} className="list-disc pl-5">
            {items}
          </ul>
        );
      }
    }
    return null;
  });
}

function renderInline(nodes: Inline[], inverted: boolean): ReactNode[] {
  return nodes.map((node, i) => {
    const key = `${node.type}-${i}`;
    switch (node.type) {
      case 'text':
        return node.text;
      case 'break':
        return <br key={key} />;
      case 'strong':
        return <strong key={key}>{renderInline(node.children, inverted)}</strong>;
      case 'em':
        return <em key={key}>{renderInline(node.children, inverted)}</em>;
      case 'underline':
        return <u key={key}>{renderInline(node.children, inverted)}</u>;
      case 'strike':
        return <s key={key}>{renderInline(node.children, inverted)}</s>;
      case 'code':
        return (
          <code
            key={key}
            className={cn(
              'rounded px-1 py-0.5 font-mono text-[0.85em]',
              inverted ? 'bg-indigo-800 text-white' : 'bg-slate-200 text-slate-900',
            )}
          >
            {node.text}
          </code>
        );
      case 'link':
        return (
          <a
            key={key}
            href={node.href}
            target="_blank"
            rel="noopener noreferrer"
            className={cn('underline', inverted ? 'text-white' : 'text-indigo-700')}
          >
            {renderInline(node.children, inverted)}
          </a>
        );
      case 'mention': {
        const chip = (
          <span
            key={key}
            data-mention={node.email ?? node.name}
            title={node.email}
            className={cn(
              'rounded px-0.5 font-semibold',
              inverted ? 'bg-indigo-500 text-white' : 'bg-indigo-100 text-indigo-800',
            )}
          >
            @{node.name}
          </span>
        );
        // A person (not @channel): their chip opens their card where the page offers one.
        return node.email ? (
          <PersonName key={key} email={node.email} name={node.name}>
            {chip}
          </PersonName>
        ) : (
          chip
        );
      }
    }
    return null;
  });
}
