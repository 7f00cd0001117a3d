import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash'),
  googleSub: text('google_sub').unique(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  role: text('role'),
  phone: text('phone'),
  createdAt: createdAt(),
  /** Set when the owner proved the address (a link sent to it, or Google's `email_verified`). */
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  /** The RFC 6238 secret of the user's authenticator app; 2FA is on only once `totpEnabledAt` is set. */
  totpSecret: text('totp_secret'),
  totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
});

/**
 * Single-use links mailed to a user: verify the address, reset the password, or confirm a new
 * address (`new_email`). Only a SHA-256 of the token is stored.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['verify_email', 'reset_password', 'change_email'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    newEmail: text('new_email'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    index('account_tokens_user_idx').on(t.userId, t.kind),
    check('account_tokens_kind_check', sql`${t.kind} in ('verify_email', 'reset_password', 'change_email')`),
  ],
);

/** Hashed one-time recovery codes for two-factor sign-in (shown once, each usable once). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/**
 * The step between a correct password and a session when 2FA is on: the browser holds the token
 * (only its hash is here) and redeems it with a code. Attempts are counted per challenge.
 */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    remember: boolean('remember').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('login_challenges_user_idx').on(t.userId)],
);

/**
 * Outgoing e-mail, written in the same transaction as the change that causes it and drained by the
 * mailer (retries with backoff). The body is cleared once sent, so links do not linger here.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
    check('mail_outbox_status_check', sql`${t.status} in ('pending', 'sent', 'failed')`),
  ],
);

/**
 * Events whose side effects must survive a crash after their commit (message notifications): written
 * in the transaction of the change, delivered on the app's bus and deleted (events/event-outbox.ts).
 */
export const eventOutbox = pgTable(
  'event_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** The id of what the event is about (a message id): the publisher delivers its own row by it. */
    key: text('key').notNull(),
    payload: jsonb('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('event_outbox_key_idx').on(t.name, t.key), index('event_outbox_created_idx').on(t.createdAt)],
);

/** Only a SHA-256 of the session token is stored: a database leak does not leak sessions. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    remember: boolean('remember').notNull().default(false),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Shown in Profile → Security so the owner can tell sessions apart. */
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Failed logins keyed by `ip:…` and `email:…`; kept in the database so every node sees them. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('login_failures_key_at_idx').on(t.key, t.at)],
);

/**
 * Requests counted by a per-user rate limit (`summary:<userId>` for the summary routes), one row per
 * request, trimmed as they age out; in the database so every node counts the same requests.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_hits_key_at_idx').on(t.key, t.at)],
);

export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  message: text('message').notNull(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

export const newsletterSubscribers = pgTable('newsletter_subscribers', {
  email: text('email').primaryKey(),
  createdAt: createdAt(),
});

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** Admins may require two-factor sign-in: members without it must set it up to open the workspace. */
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  },
  // Names are the URL key, unique without regard to case.
  (t) => [uniqueIndex('workspaces_name_key').on(sql`lower(${t.name})`)],
);

export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['viewer', 'editor', 'admin'] }).notNull(),
    joinedAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index('workspace_members_user_idx').on(t.userId),
  ],
);

/**
 * An invitation to a workspace (for an existing account or not). It becomes a membership only when the
 * invitee, signed in with a verified address equal to `email`, accepts it before `expires_at`.
 */
export const workspaceInvitations = pgTable(
  'workspace_invitations',
  {
    id: uuid('id').notNull().unique().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ['viewer', 'editor', 'admin'] }).notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true })
      .notNull()
      .default(sql`now() + interval '7 days'`),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.email] }),
    index('workspace_invitations_email_idx').on(t.email),
  ],
);

export const channels = pgTable(
  'channels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    isPrivate: boolean('is_private').notNull().default(false),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** The seq of the channel's newest message; bumped in the inserting statement (row lock = order). */
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
    /** Change counter: every insert, edit, delete, reaction or thread reply takes the next value. */
    lastRev: bigint('last_rev', { mode: 'number' }).notNull().default(0),
    /** A short line shown in the channel's header and the browse view ('' when none). */
    topic: text('topic').notNull().default(''),
    /** Set while the channel is archived: read-only, out of the sidebar, still readable and searchable. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    archivedBy: uuid('archived_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('channels_workspace_name_key').on(t.workspaceId, sql`lower(${t.name})`)],
);

export const channelMembers = pgTable(
  'channel_members',
  {
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.userId] }), index('channel_members_user_idx').on(t.userId)],
);

/** A channel a user starred: per user, shown first in their sidebar (docs/permissions.md, "Joining"). */
export const channelStars = pgTable(
  'channel_stars',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.channelId] }),
    index('channel_stars_channel_idx').on(t.channelId),
  ],
);

/**
 * Channel chat. `seq` is gapless per channel (assigned from channels.last_seq in the inserting
 * statement); (sender_id, client_id) makes a client's resend idempotent.
 */
export const channelMessages = pgTable(
  'channel_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    clientId: uuid('client_id').notNull(),
    createdAt: createdAt(),
    /** channels.last_rev when the message was inserted or last changed (docs/realtime.md, backfill). */
    rev: bigint('rev', { mode: 'number' }).notNull().default(0),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** A thread reply names its parent (a top-level message of the same channel). */
    parentId: uuid('parent_id'),
    replyCount: integer('reply_count').notNull().default(0),
    lastReplyAt: timestamp('last_reply_at', { withTimezone: true }),
    /**
     * 'system': an announcement the server wrote ("Ada renamed the channel to …"); the sender is the
     * person who acted. Never counted as unread, never edited or reacted to.
     */
    kind: text('kind', { enum: ['text', 'system'] })
      .notNull()
      .default('text'),
    /** Full-text search (simple config: no stemming surprises across languages). */
    search: tsvector('search').generatedAlwaysAs(sql`to_tsvector('simple', content)`),
  },
  (t) => [
    uniqueIndex('channel_messages_channel_seq_key').on(t.channelId, t.seq),
    uniqueIndex('channel_messages_sender_client_key').on(t.senderId, t.clientId),
    index('channel_messages_channel_rev_idx').on(t.channelId, t.rev),
    index('channel_messages_parent_idx').on(t.parentId).where(sql`${t.parentId} is not null`),
    // No pending list: with `fastupdate` on, inserts queue their words and the insert that finds the
    // list past 4 MB merges it all while its channel's row is locked (~100 ms on PGlite's one thread,
    // which nothing vacuums; docs/performance.md, "Session 24"). Off, each insert pays a little.
    index('channel_messages_search_idx').using('gin', t.search).with({ fastupdate: false }),
    // Search lists newest first: for a common word, walking this backwards finds a page sooner than
    // fetching every match from the GIN index and sorting them.
    index('channel_messages_created_idx').on(t.createdAt, t.id),
    // `from:` searches walk one sender's messages newest first.
    index('channel_messages_sender_created_idx').on(t.senderId, t.createdAt, t.id),
  ],
);

/** One user's reaction with one emoji to a channel message. */
export const channelMessageReactions = pgTable(
  'channel_message_reactions',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => channelMessages.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    emoji: text('emoji').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId, t.emoji] })],
);

/** A direct conversation is the ordered pair of its two users (user_a < user_b), with its own seq. */
/**
 * A pinned channel message (issue 22): at most one pin per message, listed in the channel's Pins
 * panel newest first. Deleting the message (or the channel, or the pinner's account) removes it.
 */
export const channelPins = pgTable(
  'channel_pins',
  {
    messageId: uuid('message_id')
      .primaryKey()
      .references(() => channelMessages.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    pinnedBy: uuid('pinned_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    pinnedAt: timestamp('pinned_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('channel_pins_channel_idx').on(t.channelId, t.pinnedAt)],
);

export const directConversations = pgTable(
  'direct_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userA: uuid('user_a')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userB: uuid('user_b')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
    lastRev: bigint('last_rev', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('direct_conversations_pair_key').on(t.userA, t.userB),
    index('direct_conversations_user_b_idx').on(t.userB),
    check('direct_conversations_ordered_pair', sql`${t.userA} < ${t.userB}`),
  ],
);

export const directMessages = pgTable(
  'direct_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => directConversations.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    receiverId: uuid('receiver_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    messageType: text('message_type', { enum: ['text'] })
      .notNull()
      .default('text'),
    clientId: uuid('client_id').notNull(),
    createdAt: createdAt(),
    rev: bigint('rev', { mode: 'number' }).notNull().default(0),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    search: tsvector('search').generatedAlwaysAs(sql`to_tsvector('simple', content)`),
  },
  (t) => [
    uniqueIndex('direct_messages_conversation_seq_key').on(t.conversationId, t.seq),
    uniqueIndex('direct_messages_sender_client_key').on(t.senderId, t.clientId),
    index('direct_messages_conversation_rev_idx').on(t.conversationId, t.rev),
    index('direct_messages_search_idx').using('gin', t.search).with({ fastupdate: false }),
    index('direct_messages_created_idx').on(t.createdAt, t.id),
  ],
);

export const directMessageReactions = pgTable(
  'direct_message_reactions',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => directMessages.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    emoji: text('emoji').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId, t.emoji] })],
);

/**
 * How far a user has read a channel or a direct conversation (the seq of the newest message seen),
 * server-side so every tab and device agrees. One row per user and conversation.
 */
export const readMarks = pgTable(
  'read_marks',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A channel id or a direct conversation id. */
    conversationId: uuid('conversation_id').notNull(),
    lastReadSeq: bigint('last_read_seq', { mode: 'number' }).notNull().default(0),
    muted: boolean('muted').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.conversationId] })],
);

/**
 * A messaging notification for one user: a mention (@name or @channel), a direct message, or a reply
 * in a thread they follow. Task notifications keep their own table; the notification centre shows both.
 */
export const messageNotifications = pgTable(
  'message_notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['mention', 'direct', 'thread', 'invitation', 'missed_call'] }).notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    channelId: uuid('channel_id').references(() => channels.id, { onDelete: 'cascade' }),
    channelMessageId: uuid('channel_message_id').references(() => channelMessages.id, {
      onDelete: 'cascade',
    }),
    directMessageId: uuid('direct_message_id').references(() => directMessages.id, { onDelete: 'cascade' }),
    /** For `invitation`: the pending invitation (the notification goes when it is accepted, declined or revoked). */
    invitationId: uuid('invitation_id').references(() => workspaceInvitations.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    index('message_notifications_user_idx').on(t.userId, t.createdAt),
    check(
      'message_notifications_kind_check',
      sql`${t.kind} in ('mention', 'direct', 'thread', 'invitation', 'missed_call')`,
    ),
  ],
);

/**
 * A message someone saved for later (issue 22): a channel message or a direct message, private to
 * `user_id`. Listed only while its owner can still read the message (decided when listing).
 */
export const savedMessages = pgTable(
  'saved_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelMessageId: uuid('channel_message_id').references(() => channelMessages.id, {
      onDelete: 'cascade',
    }),
    directMessageId: uuid('direct_message_id').references(() => directMessages.id, { onDelete: 'cascade' }),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('saved_messages_user_channel_key').on(t.userId, t.channelMessageId),
    uniqueIndex('saved_messages_user_direct_key').on(t.userId, t.directMessageId),
    index('saved_messages_user_saved_idx').on(t.userId, t.savedAt),
    // Deleting a message (a channel, an account) finds its saved rows without a scan.
    index('saved_messages_channel_message_idx')
      .on(t.channelMessageId)
      .where(sql`${t.channelMessageId} is not null`),
    index('saved_messages_direct_message_idx')
      .on(t.directMessageId)
      .where(sql`${t.directMessageId} is not null`),
    check(
      'saved_messages_one_message',
      sql`(${t.channelMessageId} is null) <> (${t.directMessageId} is null)`,
    ),
  ],
);

/**
 * Shared files. A file belongs to one conversation: a channel (workspace_id + channel_id) or a
 * direct conversation (the ordered pair dm_user_a < dm_user_b). It is readable by whoever can read
 * that conversation once a message carries it; before that only by its uploader. The bytes live in
 * the file storage (local disk or S3) under storage_key; thumbnail_key is an optional small image
 * the uploading browser made.
 */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    uploaderId: uuid('uploader_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id').references(() => channels.id, { onDelete: 'cascade' }),
    dmUserA: uuid('dm_user_a').references(() => users.id, { onDelete: 'cascade' }),
    dmUserB: uuid('dm_user_b').references(() => users.id, { onDelete: 'cascade' }),
    channelMessageId: uuid('channel_message_id').references(() => channelMessages.id, {
      onDelete: 'set null',
    }),
    directMessageId: uuid('direct_message_id').references(() => directMessages.id, {
      onDelete: 'set null',
    }),
    /**
     * A card attachment's board (issue 20): readable by the board's readers once a task carries it
     * (task_attachments); `workspace_id` is the board's workspace (its quota), null on a personal board.
     */
    boardId: uuid('board_id').references((): AnyPgColumn => taskBoards.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    thumbnailKey: text('thumbnail_key'),
    width: integer('width'),
    height: integer('height'),
    durationMs: integer('duration_ms'),
    createdAt: createdAt(),
  },
  (t) => [
    index('files_channel_message_idx').on(t.channelMessageId),
    index('files_direct_message_idx').on(t.directMessageId),
    index('files_workspace_idx').on(t.workspaceId),
    index('files_board_idx').on(t.boardId),
    check(
      'files_one_conversation',
      sql`(${t.channelId} is not null and ${t.workspaceId} is not null and ${t.dmUserA} is null and ${t.dmUserB} is null and ${t.boardId} is null)
        or (${t.channelId} is null and ${t.dmUserA} is not null and ${t.dmUserB} is not null and ${t.dmUserA} < ${t.dmUserB} and ${t.boardId} is null)
        or (${t.boardId} is not null and ${t.channelId} is null and ${t.dmUserA} is null and ${t.dmUserB} is null)`,
    ),
  ],
);

/**
 * Stored bytes whose `files` row is gone: a trigger on `files` adds the keys of every deleted row
 * (a message, channel, workspace or account deleted, an upload swept), and the file sweeper removes
 * the bytes from the storage and then the row here. Nothing is orphaned whichever cascade deleted it.
 */
export const fileDeletions = pgTable('file_deletions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  storageKey: text('storage_key').notNull(),
  createdAt: createdAt(),
});

/**
 * A task board (issue 20): a workspace's team board (any number per workspace) or a user's one
 * personal board — exactly one of `workspace_id` and `owner_id` is set. `rev` counts its committed
 * changes (bumped first in every change's transaction, which also serialises changes of one board).
 */
export const taskBoards = pgTable(
  'task_boards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    rev: bigint('rev', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    uniqueIndex('task_boards_personal_key').on(t.ownerId).where(sql`${t.ownerId} is not null`),
    uniqueIndex('task_boards_workspace_title_key').on(t.workspaceId, sql`lower(${t.title})`),
    check('task_boards_one_holder', sql`(${t.workspaceId} is null) <> (${t.ownerId} is null)`),
  ],
);

/** A board's list (Taskboard column); names are unique per board without regard to case. `owner_id` is its creator. */
export const taskLists = pgTable(
  'task_lists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    boardId: uuid('board_id')
      .notNull()
      .references(() => taskBoards.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('task_lists_board_title_key').on(t.boardId, sql`lower(${t.title})`)],
);

/** A task (card). `owner_id` is its creator, the owner of its list; archived tasks keep their list. */
export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    listId: uuid('list_id')
      .notNull()
      .references(() => taskLists.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    priority: text('priority', { enum: ['Low', 'Medium', 'High'] })
      .notNull()
      .default('Medium'),
    position: integer('position').notNull().default(0),
    deadline: timestamp('deadline', { withTimezone: true }),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** "Create task from message": the chat message it links back to (a link, not a reference: the message may go). */
    sourceWorkspaceId: uuid('source_workspace_id'),
    sourceChannelId: uuid('source_channel_id'),
    sourceMessageId: uuid('source_message_id'),
  },
  (t) => [index('tasks_list_idx').on(t.listId, t.position), index('tasks_owner_idx').on(t.ownerId)],
);

/**
 * A file on a card. The link belongs to the files feature (files.access.ts writes and reads it, as
 * it does a message's attachments); a file whose task is gone is unattached again and swept.
 */
export const taskAttachments = pgTable(
  'task_attachments',
  {
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.fileId] }), index('task_attachments_file_idx').on(t.fileId)],
);

export const taskAssignees = pgTable(
  'task_assignees',
  {
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.userId] }), index('task_assignees_user_idx').on(t.userId)],
);

export const taskComments = pgTable(
  'task_comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('task_comments_task_idx').on(t.taskId, t.createdAt)],
);

export const taskChecklistItems = pgTable(
  'task_checklist_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    done: boolean('done').notNull().default(false),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('task_checklist_items_task_idx').on(t.taskId, t.position)],
);

export const taskLabels = pgTable(
  'task_labels',
  {
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.label] })],
);

/** Who changed what on a task, and when; written in the same transaction as the change. */
export const taskActivity = pgTable(
  'task_activity',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('task_activity_task_idx').on(t.taskId, t.createdAt)],
);

/**
 * A Taskboard notification for one user: assigned to a task, a comment on a task they own or are
 * assigned to, or a task due within 24 hours ('due' exists once per user and task).
 */
export const taskNotifications = pgTable(
  'task_notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['assigned', 'comment', 'due', 'mention'] }).notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    index('task_notifications_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('task_notifications_due_key').on(t.userId, t.taskId, t.kind).where(sql`${t.kind} = 'due'`),
    check('task_notifications_kind_check', sql`${t.kind} in ('assigned', 'comment', 'due', 'mention')`),
  ],
);

/**
 * A GitHub repository linked to a workspace (once per workspace, without regard to case). The
 * repository's data is a copy refreshed by the sync; `sync_lease_until` lets one node at a time
 * sync it when several run.
 */
export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    owner: text('owner').notNull(),
    repo: text('repo').notNull(),
    name: text('name').notNull(),
    fullName: text('full_name').notNull(),
    stars: integer('stars').notNull().default(0),
    forks: integer('forks').notNull().default(0),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    lastSyncAttemptAt: timestamp('last_sync_attempt_at', { withTimezone: true }),
    lastSyncError: text('last_sync_error'),
    syncLeaseUntil: timestamp('sync_lease_until', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('projects_workspace_repo_key').on(
      t.workspaceId,
      sql`lower(${t.owner})`,
      sql`lower(${t.repo})`,
    ),
    index('projects_repo_idx').on(sql`lower(${t.owner})`, sql`lower(${t.repo})`),
  ],
);

/**
 * A pull request or issue of a project, keyed by its number. The sync rewrites what GitHub owns
 * and never touches `assignee_id`, so an assignment survives re-syncs.
 */
export const projectItems = pgTable(
  'project_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['pullrequest', 'issue'] }).notNull(),
    number: integer('number').notNull(),
    title: text('title').notNull(),
    url: text('url').notNull(),
    state: text('state', { enum: ['open', 'merged', 'closed'] }).notNull(),
    author: text('author'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('project_items_project_kind_number_key').on(t.projectId, t.kind, t.number),
    check('project_items_kind_check', sql`${t.kind} in ('pullrequest', 'issue')`),
    check('project_items_state_check', sql`${t.state} in ('open', 'merged', 'closed')`),
  ],
);

/**
 * The ETag GitHub gave for a project's resource ('repo', the first page of 'pulls' and of 'issues'),
 * sent back as If-None-Match: an unchanged repository answers 304, which costs no rate limit.
 */
export const projectEtags = pgTable(
  'project_etags',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    resource: text('resource').notNull(),
    etag: text('etag').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.resource] })],
);
