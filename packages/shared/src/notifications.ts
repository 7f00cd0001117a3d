import { z } from 'zod';
import { MENTION_PATTERN } from './notifications.constants.ts';

export * from './notifications.constants.ts';

/**
 * Notifications: @mentions, direct messages and thread replies (message notifications), merged with
 * task notifications (assigned, comment, due) into one feed — the notification centre.
 *
 * Mention syntax (docs/notifications.md): `@[Display Name](email)` names one workspace member (the
 * composer's autocomplete inserts it; the Markdown renderer shows it as a highlighted `@Display Name`),
 * and `@channel` names everyone who can read the channel. A plain `@word` is only styled, never a
 * notification, because a word does not identify one person.
 */

export const NOTIFICATIONS_NAMESPACE = '/notifications';

export const NOTIFICATION_EVENTS = {
  /** server → client: a new notification, to its recipient's tabs only. */
  notification: 'notification',
} as const;

export const NOTIFICATION_MESSAGES = {
  notificationNotFound: 'Notification not found',
  readTarget: 'Give ids or channelId',
} as const;

export const MESSAGE_NOTIFICATION_KINDS = [
  'mention',
  'direct',
  'thread',
  'invitation',
  'missed_call',
] as const;
export const NOTIFICATION_KINDS = [...MESSAGE_NOTIFICATION_KINDS, 'assigned', 'comment', 'due'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATIONS_PAGE_MAX = 100;
export const NOTIFICATIONS_PAGE_DEFAULT = 30;
/** Longest excerpt of a message a notification carries. */
export const NOTIFICATION_EXCERPT_MAX = 160;

export const notificationActor = z.object({ _id: z.string(), email: z.string(), name: z.string() });

export const notification = z.object({
  _id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** Who caused it; null for 'due' and once that account is gone. */
  actor: notificationActor.nullable(),
  createdAt: z.string(),
  read: z.boolean(),
  /** A plain-text excerpt: the message (mentions as `@Name`) or the task's title. */
  text: z.string(),
  /** The web route that opens it in context. */
  link: z.string(),
  /** For channel notifications (mention badges). */
  channelId: z.string().nullable(),
  workspaceId: z.string().nullable(),
});
export type Notification = z.infer<typeof notification>;

export const listNotificationsQuery = z.object({
  /** Cursor: the `nextCursor` of the previous page. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_PAGE_MAX).default(NOTIFICATIONS_PAGE_DEFAULT),
  unread: z.enum(['true', 'false']).optional(),
});
export type ListNotificationsQuery = z.input<typeof listNotificationsQuery>;

export const notificationPage = z.object({
  notifications: z.array(notification),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
  /** All the caller's unread notifications (for the bell), not only this page's. */
  unreadCount: z.number().int(),
});
export type NotificationPage = z.infer<typeof notificationPage>;

/** `POST /api/notifications/read`: these ids (others' ids are ignored), or a channel's mentions. */
export const readNotificationsBody = z
  .object({
    ids: z.array(z.string().uuid()).min(1).max(500).optional(),
    channelId: z.string().uuid().optional(),
  })
  .refine((b) => (b.ids ? 1 : 0) + (b.channelId ? 1 : 0) === 1, {
    message: NOTIFICATION_MESSAGES.readTarget,
  });
export type ReadNotificationsBody = z.infer<typeof readNotificationsBody>;
export const readNotificationsResponse = z.object({ updated: z.number().int() });

/** `GET /api/workspaces/{workspaceName}/mentions`: unread mentions per readable channel. */
export const mentionCounts = z.array(z.object({ channelId: z.string(), count: z.number().int() }));
export type MentionCounts = z.infer<typeof mentionCounts>;

export const notificationEvent = notification;

// ---------------------------------------------------------------------------------------------------
// Mention syntax, shared by the server (who to notify) and the web (autocomplete, excerpts)

/** `@channel` as a word of its own. */
const CHANNEL_MENTION = /(^|[^\p{L}\p{N}_.@-])@channel(?![\p{L}\p{N}_-])/u;

/** Whom a message mentions: lower-cased e-mails and whether it says `@channel`. Code spans count too. */
export function parseMentions(content: string): { emails: string[]; channel: boolean } {
  const emails = new Set<string>();
  for (const m of content.matchAll(MENTION_PATTERN)) emails.add((m[2] ?? '').toLowerCase());
  return { emails: [...emails], channel: CHANNEL_MENTION.test(content) };
}

/**
 * Whether a channel message can notify anyone: it mentions someone (or `@channel`) or replies in a
 * thread (whose followers hear of it). Any other channel message notifies nobody, so its sender
 * queues no notification work for it (a direct message always notifies its recipient).
 */
export function channelMessageMayNotify(content: string, parentId: string | null): boolean {
  if (parentId) return true;
  const mentions = parseMentions(content);
  return mentions.channel || mentions.emails.length > 0;
}

/**
 * Plain text for a notification: mentions (as MENTION_PATTERN reads them) become `@Name`, whitespace
 * collapses, long text is cut. One pass that stops once the excerpt is full; each `(email)` is read
 * once however many `@[` come before its `]`, where the pattern would re-read it for every one
 * (issue 17: linear in the message; `meter` counts the characters read, for tests).
 */
export function excerptOf(content: string, max = NOTIFICATION_EXCERPT_MAX, meter = { steps: 0 }): string {
  const n = content.length;
  let out = '';
  let space = false;
  const put = (ch: string) => {
    if (/\s/.test(ch)) {
      space = out.length > 0;
      return;
    }
    out += space ? ` ${ch}` : ch;
    space = false;
  };
  const stop = (ch: string | undefined) => ch === undefined || ch === '(' || ch === ')' || /\s/.test(ch);
  // The next `]` and line break at or after the current `@[`, found once each as `i` moves on.
  let bracket = -1;
  let newline = -1;
  const ends = new Map<number, number>();
  /** The `)` of `(local@domain)` right after the `]` at `close`, or -1. */
  const emailEnd = (close: number) => {
    const cached = ends.get(close);
    if (cached !== undefined) return cached;
    let at = close + 2;
    while (!stop(content[at]) && content[at] !== '@') at += 1;
    const local = at > close + 2 && content[at] === '@';
    const domain = at + 1;
    if (local) for (at = domain; !stop(content[at]); ) at += 1;
    meter.steps += at - close;
    const end = local && at > domain && content[at] === ')' ? at : -1;
    ends.set(close, end);
    return end;
  };
  let i = 0;
  while (i < n && out.length <= max) {
    meter.steps += 1;
    if (content[i] === '@' && content[i + 1] === '[') {
      if (bracket < i + 2) {
        const at = content.indexOf(']', i + 2);
        bracket = at === -1 ? n : at;
        meter.steps += bracket - i;
      }
      if (newline < i + 2) {
        const at = content.indexOf('\n', i + 2);
        newline = at === -1 ? n : at;
        meter.steps += newline - i;
      }
      const name = bracket < n && bracket < newline ? content.slice(i + 2, bracket) : '';
      // 1 to 100 code points, as the pattern's `{1,100}` with the `u` flag counts them.
      const fits = name !== '' && name.length <= 200 && [...name].length <= 100;
      const end = fits && content[bracket + 1] === '(' ? emailEnd(bracket) : -1;
      if (end !== -1) {
        put('@');
        for (const ch of name) put(ch);
        i = end + 1;
        continue;
      }
    }
    put(content[i] as string);
    i += 1;
  }
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}
