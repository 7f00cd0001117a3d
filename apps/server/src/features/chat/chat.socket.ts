import {
  announcement,
  CHANNEL_EVENTS,
  type ChannelAccessLostEvent,
  type ChannelMembersChangedEvent,
  type ChannelUpdatedEvent,
} from '@cohort/shared/channels';
import {
  CHAT_EVENTS,
  CHAT_MESSAGES,
  CHAT_NAMESPACE,
  type ChannelMessage,
  joinChannelPayload,
  leaveChannelPayload,
  sendChannelMessagePayload,
  typingPayload,
  type UserTypingEvent,
} from '@cohort/shared/chat';
import { displayName } from '@cohort/shared/names';
import { type ChannelPinsChangedEvent, PIN_EVENTS } from '@cohort/shared/pins';
import { sql } from 'drizzle-orm';
import type { Namespace, Server, Socket } from 'socket.io';
import type { AppContext } from '../../context.ts';
import { uuidArray } from '../../db/any-uuid.ts';
import { channels } from '../../db/schema.ts';
import type { AppEvents } from '../../events/event-bus.ts';
import { ackOf, failureReason, reasonOf } from '../../realtime/acks.ts';
import { KeyedSerial } from '../../realtime/keyed-serial.ts';
import { messageSendLimiter, type PerUserLimiter, type RealtimeOptions } from '../../realtime/options.ts';
import {
  authenticatedNamespace,
  channelRoom,
  type SocketData,
  userRoom,
} from '../../realtime/socket-server.ts';
import { channelMemberCount, channelReadableSql } from '../workspaces/workspaces.access.ts';
import { presentChannelInfo } from '../workspaces/workspaces.presenter.ts';
import { type ChannelPublisher, sendChannelMessage } from './chat.actions.ts';
import { loadChannelForChat, ResolvedChannels } from './chat.policy.ts';
import { presentChannelMessage } from './chat.presenter.ts';
import {
  loadChannelRow,
  loadMessageInChannel,
  loadSender,
  postSystemMessage,
  workspaceChannelIds,
} from './chat.service.ts';

const CHANNEL_PREFIX = 'channel:';

export interface ChatRealtime extends ChannelPublisher {
  nsp: Namespace;
  /** After a commit: the stored message to the channel's room on every node; ends the sender's typing. */
  announce(senderId: string, message: ChannelMessage): void;
  /** Messages per user over every socket and HTTP request (shared with direct messages). */
  sendLimiter: PerUserLimiter;
  close(): void;
}

/**
 * Typing state of this node's users. At most one `isTyping: true` per user and channel per
 * throttle window is relayed; each refresh restarts the expiry, after which the others get
 * `isTyping: false`. The typer's own sockets (all tabs) never get their own typing events. Timers
 * are per node: a node going away only ends its users' indicators early.
 */
/** At most this many typing announcements per user per throttle window, whatever the channels. */
const TYPING_RELAYS_PER_WINDOW = 4;

class TypingTracker {
  private readonly states = new Map<
    string,
    {
      lastRelay: number;
      announced: boolean;
      timer: NodeJS.Timeout;
      channelId: string;
      userId: string;
      email: string;
    }
  >();
  /** Relays per user in the last throttle window, over all channels: switching channels is no way around it. */
  private readonly relaysByUser = new Map<string, number[]>();

  constructor(
    private readonly nsp: Namespace,
    private readonly options: RealtimeOptions,
  ) {}

  private takeUserRelay(userId: string, now: number): boolean {
    const since = now - this.options.typingThrottleMs;
    const recent = (this.relaysByUser.get(userId) ?? []).filter((at) => at > since);
    if (recent.length >= TYPING_RELAYS_PER_WINDOW) return false;
    recent.push(now);
    this.relaysByUser.set(userId, recent);
    return true;
  }

  typing(user: { id: string; email: string }, channelId: string, isTyping: boolean) {
    const key = `${channelId}|${user.id}`;
    const state = this.states.get(key);
    if (!isTyping) {
      this.stop(channelId, user.id);
      return;
    }
    const now = Date.now();
    if (state) clearTimeout(state.timer);
    const due = !state || now - state.lastRelay >= this.options.typingThrottleMs;
    const relay = due && this.takeUserRelay(user.id, now);
    const timer = setTimeout(() => this.stop(channelId, user.id), this.options.typingExpireMs);
    timer.unref();
    this.states.set(key, {
      lastRelay: relay ? now : (state?.lastRelay ?? 0),
      announced: relay || (state?.announced ?? false),
      timer,
      channelId,
      userId: user.id,
      email: user.email,
    });
    if (relay) this.emit({ channelId, userId: user.id, email: user.email, isTyping: true });
  }

  /** Ends an indicator this node announced (message sent, blank input, expiry, room left). */
  stop(channelId: string, userId: string) {
    const key = `${channelId}|${userId}`;
    const state = this.states.get(key);
    if (!state) return;
    clearTimeout(state.timer);
    this.states.delete(key);
    if (![...this.states.values()].some((st) => st.userId === userId)) {
      // Kept only while they matter: the window of the user's last relays.
      const since = Date.now() - this.options.typingThrottleMs;
      const recent = (this.relaysByUser.get(userId) ?? []).filter((at) => at > since);
      if (recent.length === 0) this.relaysByUser.delete(userId);
    }
    // Only what the others were told is taken back: refused starts end silently.
    if (state.announced) this.emit({ channelId, userId, email: state.email, isTyping: false });
  }

  private emit(event: UserTypingEvent) {
    this.nsp
      .to(channelRoom(event.channelId))
      .except(userRoom(event.userId))
      .emit(CHAT_EVENTS.userTyping, event);
  }

  close() {
    for (const state of this.states.values()) clearTimeout(state.timer);
    this.states.clear();
    this.relaysByUser.clear();
  }
}

/**
 * `/chat`: channel rooms, typing and sending. Every send is validated, authorized against the
 * database (not against the joined rooms) and committed before the acknowledgement and the
 * broadcast; the rooms only decide who receives.
 */
export function registerChatNamespace(ctx: AppContext, io: Server, options: RealtimeOptions): ChatRealtime {
  const nsp = authenticatedNamespace(ctx, io, CHAT_NAMESPACE);
  const typing = new TypingTracker(nsp, options);
  const sendLimiter = messageSendLimiter(ctx, options);

  const announce = (senderId: string, message: ChannelMessage) => {
    typing.stop(message.channel, senderId);
    nsp.to(channelRoom(message.channel)).emit(CHAT_EVENTS.newMessage, message);
    ctx.metrics.messageDelivered('channel', message._id);
  };
  const announceUpdate = (message: ChannelMessage) => {
    nsp.to(channelRoom(message.channel)).emit(CHAT_EVENTS.messageUpdated, message);
  };
  /** A new message, and for a thread reply its parent's new reply count. */
  const announceCreated = async (senderId: string, message: ChannelMessage) => {
    announce(senderId, message);
    if (message.parentId) {
      announceUpdate(
        presentChannelMessage(await loadMessageInChannel(ctx, message.channel, message.parentId)),
      );
    }
  };

  const announcePins = (event: ChannelPinsChangedEvent) => {
    nsp.to(channelRoom(event.channelId)).emit(PIN_EVENTS.channelPinsChanged, event);
  };
  const publisher: ChannelPublisher = { announceCreated, announceUpdate, announcePins };

  nsp.on('connection', (socket: Socket) => {
    const user = (socket.data as SocketData).user;
    const resolved = new ResolvedChannels();

    socket.on(CHAT_EVENTS.joinChannel, async (payload: unknown, ack: unknown) => {
      const reply = ackOf(ack);
      const parsed = joinChannelPayload.safeParse(payload);
      if (!parsed.success) return reply({ ok: false, message: CHAT_MESSAGES.channelNotFound });
      try {
        const { workspaceName, channelId } = parsed.data;
        const access = await loadChannelForChat(ctx, user, workspaceName, channelId);
        if (socket.disconnected) return;
        resolved.remember(workspaceName, channelId, access);
        socket.join(channelRoom(access.channel.id));
        reply({ ok: true });
      } catch (err) {
        reply({ ok: false, message: failureReason(ctx, err, CHAT_MESSAGES.channelNotFound) });
      }
    });

    socket.on(CHAT_EVENTS.leaveChannel, (payload: unknown, ack: unknown) => {
      const parsed = leaveChannelPayload.safeParse(payload);
      if (parsed.success) {
        socket.leave(channelRoom(parsed.data.channelId));
        typing.stop(parsed.data.channelId, user.id);
      }
      ackOf(ack)(parsed.success ? { ok: true } : { ok: false, message: reasonOf(parsed.error) });
    });

    socket.on(CHAT_EVENTS.typing, (payload: unknown) => {
      const parsed = typingPayload.safeParse(payload);
      // Only a socket that was let into the room may announce typing there.
      if (!parsed.success || !socket.rooms.has(channelRoom(parsed.data.channelId))) return;
      typing.typing(user, parsed.data.channelId, parsed.data.isTyping);
    });

    socket.on(CHAT_EVENTS.sendMessage, async (payload: unknown, ack: unknown) => {
      const reply = ackOf(ack);
      if (!sendLimiter.take(user.id)) return reply({ ok: false, message: CHAT_MESSAGES.slowDown });
      const parsed = sendChannelMessagePayload.safeParse(payload);
      if (!parsed.success) return reply({ ok: false, message: reasonOf(parsed.error) });
      const { workspaceName, channelId, clientId, message } = parsed.data;
      try {
        const input = {
          clientId,
          content: message.content,
          parentId: message.parentId,
          attachments: message.attachments,
        };
        await sendChannelMessage(ctx, publisher, user, { workspaceName, channelId }, input, {
          resolved,
          acknowledge: (presented) => reply({ ok: true, message: presented }),
        });
      } catch (err) {
        reply({ ok: false, message: failureReason(ctx, err, CHAT_MESSAGES.channelNotFound) });
      }
    });
  });

  // Membership changes: the affected sockets leave the rooms at once, on every node (the adapter
  // carries socketsLeave), so a removed member receives nothing more.
  const onMemberRemoved = async ({ workspaceId, userId }: { workspaceId: string; userId: string }) => {
    const ids = await workspaceChannelIds(ctx, workspaceId);
    if (ids.length === 0) return;
    nsp.in(userRoom(userId)).socketsLeave(ids.map(channelRoom));
    for (const id of ids) typing.stop(id, userId);
  };
  const emptyRooms = (channelIds: string[]) => {
    if (channelIds.length === 0) return;
    const rooms = channelIds.map(channelRoom);
    nsp.in(rooms).socketsLeave(rooms);
  };
  // Channel management (issue 22): each change is announced in the channel as a system message, in
  // order, then pushed: the channel's new fields or member count to its room and to the people
  // concerned (their sidebars), and those who lost access leave the room and are told.
  const onChannelChanged = async (e: AppEvents['channelChanged']) => {
    for (const id of e.lostAccess) {
      nsp.in(userRoom(id)).socketsLeave(channelRoom(e.channelId));
      typing.stop(e.channelId, id);
      nsp.to(userRoom(id)).emit(CHANNEL_EVENTS.channelAccessLost, {
        workspaceId: e.workspaceId,
        channelId: e.channelId,
      } satisfies ChannelAccessLostEvent);
    }
    const actor = await loadSender(ctx, e.actorId);
    for (const change of e.changes) {
      const stored = await postSystemMessage(
        ctx,
        e.channelId,
        e.actorId,
        announcement(displayName(actor), change),
      );
      if (stored) announce(e.actorId, presentChannelMessage(stored));
    }
    const row = await loadChannelRow(ctx, e.channelId);
    if (!row) return;
    const membership = e.changes.some((c) => ['joined', 'left', 'added', 'removed'].includes(c.kind));
    if (membership) {
      const event: ChannelMembersChangedEvent = {
        workspaceId: e.workspaceId,
        channelId: e.channelId,
        memberCount: await channelMemberCount(ctx, e.channelId),
      };
      nsp
        .to([channelRoom(e.channelId), ...e.concerned.map(userRoom)])
        .emit(CHANNEL_EVENTS.channelMembersChanged, event);
    }
    if (!membership || e.concerned.length > 0) {
      const event: ChannelUpdatedEvent = { channel: presentChannelInfo(row) };
      nsp
        .to([
          channelRoom(e.channelId),
          ...e.concerned.filter((id) => !e.lostAccess.includes(id)).map(userRoom),
        ])
        .emit(CHANNEL_EVENTS.channelUpdated, event);
    }
  };
  // One channel's announcements go out in the order its changes were published (commit order).
  const announcements = new KeyedSerial();
  const handlers = {
    channelChanged: (e: AppEvents['channelChanged']) => {
      announcements
        .run(e.channelId, () => onChannelChanged(e))
        .catch((err) => ctx.log.error({ err }, 'announcing a channel change failed'));
    },
    memberRemoved: (e: { workspaceId: string; userId: string }) => {
      onMemberRemoved(e).catch((err) => ctx.log.error({ err }, 'leaving rooms after member removal failed'));
    },
    workspaceDeleted: (e: { channelIds: string[] }) => emptyRooms(e.channelIds),
    channelDeleted: (e: { channelId: string }) => emptyRooms([e.channelId]),
  };
  const offs = [
    ctx.bus.on('channelChanged', handlers.channelChanged),
    ctx.bus.on('memberRemoved', handlers.memberRemoved),
    ctx.bus.on('workspaceDeleted', handlers.workspaceDeleted),
    ctx.bus.on('channelDeleted', handlers.channelDeleted),
  ];

  // Backstop for changes whose event never ran (the deciding node died after its commit, or a join
  // raced a removal): re-check every joined channel of this node's sockets in one query.
  let checking = false;
  const roomTimer = setInterval(() => {
    if (checking) return;
    checking = true;
    pruneRooms(ctx, nsp, typing)
      .catch((err) => ctx.log.error({ err }, 'room check failed'))
      .finally(() => {
        checking = false;
      });
  }, options.roomCheckMs);
  roomTimer.unref();

  return {
    nsp,
    announce,
    announceUpdate,
    announceCreated,
    announcePins,
    sendLimiter,
    close: () => {
      clearInterval(roomTimer);
      for (const off of offs) off();
      typing.close();
    },
  };
}

/** Makes this node's sockets leave every channel room their user may no longer read. */
async function pruneRooms(ctx: AppContext, nsp: Namespace, typing: TypingTracker) {
  const joined: Array<{ socket: Socket; userId: string; channelId: string }> = [];
  for (const socket of nsp.sockets.values()) {
    const userId = (socket.data as SocketData).user.id;
    for (const room of socket.rooms) {
      if (room.startsWith(CHANNEL_PREFIX)) {
        joined.push({ socket, userId, channelId: room.slice(CHANNEL_PREFIX.length) });
      }
    }
  }
  if (joined.length === 0) return;
  // Each distinct (channel, user) pair once, as two array parameters; only the pairs that may no
  // longer read come back (almost always none). Returning every readable pair of every workspace
  // member, as this did before, grew with members × channels and showed up in bench/load.ts.
  const pairs = [...new Set(joined.map((j) => `${j.channelId}|${j.userId}`))].map((p) => p.split('|'));
  const result = await ctx.db.execute(sql`
    select j.channel_id, j.user_id
    from unnest(${uuidArray(pairs.map((p) => p[0] ?? ''))}, ${uuidArray(pairs.map((p) => p[1] ?? ''))})
      as j(channel_id, user_id)
    where not exists (
      select 1 from ${channels} c
      where c.id = j.channel_id and ${channelReadableSql('c', sql`j.user_id`)}
    )`);
  const lost = new Set(
    (result as unknown as { rows: { channel_id: string; user_id: string }[] }).rows.map(
      (r) => `${r.channel_id}|${r.user_id}`,
    ),
  );
  if (lost.size === 0) return;
  for (const j of joined) {
    if (!lost.has(`${j.channelId}|${j.userId}`)) continue;
    j.socket.leave(channelRoom(j.channelId));
    typing.stop(j.channelId, j.userId);
  }
}
