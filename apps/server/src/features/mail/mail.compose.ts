import type { AppContext } from '../../context.ts';
import type { OutgoingMail } from './mail.outbox.ts';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Every string that reaches the HTML body goes through this (names, workspace names, addresses). */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

// A header cannot hold a line break; a user-chosen name in a subject must not start a new header.
const oneLine = (s: string) => s.replace(/[\r\n\t]+/g, ' ').trim();

export interface ComposeInput {
  kind: string;
  to: string;
  subject: string;
  paragraphs: string[];
  /** The one link button (also written out in the text part). */
  action?: { label: string; url: string };
  footer?: string;
}

/** Plain text + simple HTML, every string escaped in the HTML; `action` is the one link button. */
export function composeMail(input: ComposeInput): OutgoingMail {
  const { action, footer } = input;
  if (action && !/^https?:\/\//i.test(action.url)) {
    // Links are built by appLink; anything else (javascript:, data:) is a bug, not a mail.
    throw new Error(`mail link must be http(s): ${action.url}`);
  }
  const subject = oneLine(input.subject);
  const text = [
    ...input.paragraphs,
    ...(action ? [`${action.label}: ${action.url}`] : []),
    ...(footer ? ['--', footer] : []),
  ].join('\n\n');

  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s).replace(/\n/g, '<br>')}</p>`;
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4f46e5;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:12px;color:#555555">Or paste this link into your browser: ${escapeHtml(action.url)}</p>`
    : '';
  const foot = footer
    ? `<hr style="border:none;border-top:1px solid #dddddd;margin:24px 0"><p style="font-size:12px;color:#777777">${escapeHtml(footer)}</p>`
    : '';
  const html = [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111111">',
    '<div style="max-width:560px;margin:0 auto;padding:24px">',
    ...input.paragraphs.map(p),
    button,
    foot,
    '</div></body></html>',
  ].join('\n');
  return { kind: input.kind, to: input.to, subject, text, html };
}

/** An absolute link to a web route: PUBLIC_URL, else http://HOST:PORT of this server. */
export function appLink(ctx: AppContext, path: string): string {
  const { PUBLIC_URL, HOST, PORT } = ctx.config;
  // A wildcard bind address is not somewhere a browser can go; the same machine is.
  const host = ['0.0.0.0', '::', '[::]', ''].includes(HOST) ? 'localhost' : HOST;
  const base =
    PUBLIC_URL ?? `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${PORT}`;
  // Keeps a path prefix of PUBLIC_URL (https://example.com/cohort + /login).
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
