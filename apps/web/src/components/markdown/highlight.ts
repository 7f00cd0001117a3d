import type { ElementContent, Root } from 'hast';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import { createLowlight } from 'lowlight';
import { createElement, type ReactNode } from 'react';

const lowlight = createLowlight({ bash, css, javascript, json, python, sql, typescript, xml });
lowlight.registerAlias({
  javascript: ['js', 'jsx'],
  typescript: ['ts', 'tsx'],
  bash: ['sh', 'shell'],
  xml: ['html'],
});

/** Token classes → colours (the highlighter only says what a token is). */
const COLOURS: Record<string, string> = {
  'hljs-keyword': 'text-pink-300',
  'hljs-built_in': 'text-sky-300',
  'hljs-type': 'text-sky-300',
  'hljs-literal': 'text-orange-300',
  'hljs-number': 'text-orange-300',
  'hljs-string': 'text-emerald-300',
  'hljs-regexp': 'text-emerald-300',
  'hljs-comment': 'text-slate-400 italic',
  'hljs-title': 'text-amber-200',
  'hljs-attr': 'text-sky-200',
  'hljs-attribute': 'text-sky-200',
  'hljs-tag': 'text-pink-200',
  'hljs-name': 'text-pink-300',
  'hljs-variable': 'text-amber-100',
  'hljs-params': 'text-slate-200',
  'hljs-meta': 'text-violet-300',
  'hljs-property': 'text-sky-200',
};

function toReact(nodes: ElementContent[], prefix: string): ReactNode[] {
  return nodes.map((node, i) => {
    if (node.type === 'text') return node.value;
    if (node.type !== 'element') return null;
    const classes = (node.properties?.className as string[] | undefined) ?? [];
    const className = classes.map((c) => COLOURS[c] ?? c).join(' ');
    // Only <span>s with class names come out of lowlight; attributes are not copied over.
    return createElement(
      'span',
      { key: `${prefix}${i}`, className },
      ...toReact(node.children, `${prefix}${i}.`),
    );
  });
}

/** Highlighted tokens as React elements (text and spans only); unknown languages are auto-detected. */
export function highlightToReact(code: string, lang: string): ReactNode {
  let tree: Root;
  try {
    tree = lang && lowlight.registered(lang) ? lowlight.highlight(lang, code) : lowlight.highlightAuto(code);
  } catch {
    return code;
  }
  return toReact(tree.children as ElementContent[], 'h');
}
