import { randomUUID } from 'node:crypto';
import {
  acceptCallPayload,
  CALL_PAYLOAD_MAX_BYTES,
  CALL_RATE_LIMIT,
  CALL_RATE_WINDOW_MS,
  CALL_REASONS,
  type CallAck,
  callPeerPayload,
  initiateCallPayload,
  MESH_EVENTS,
  MESH_NAMESPACE,
  MESH_ROOM_MAX,
  type MeetingState,
  type MeshParticipant,
  meshAnswerPayload,
  meshCandidatePayload,
  meshJoinPayload,
  meshMediaStatePayload,
  meshOfferPayload,
  VIDEO_EVENTS,
  VIDEO_NAMESPACE,
  videoCandidatePayload,
} from '@cohort/shared/calls';
import { displayName } from '@cohort/shared/names';
import type { Namespace, Server, Socket } from 'socket.io';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { type Ack, ackOf } from '../../realtime/acks.ts';
import { KeyedSerial } from '../../realtime/keyed-serial.ts';
import { type RealtimeOptions, SendLimiter } from '../../realtime/options.ts';
import { authenticatedNamespace, type SocketData, userRoom } from '../../realtime/socket-server.ts';
import { loadChannelByIdForUser, sharesWorkspace } from '../workspaces/workspaces.access.ts';
import { type AdHocRooms, findCallee } from './calls.service.ts';
import type { SfuRooms } from './janus.ts';

/** Server-to-server event that replicates call legs between nodes. */
const LEG_SYNC = 'calls:leg';
/** Server-to-server event that tells the other nodes about a new ad-hoc mesh room. */
const ROOM_SYNC = 'calls:room';

const refuse = (reason: string): CallAck => ({ ok: false, reason });
const OK: CallAck = { ok: true };

/** The serialized size of a payload, or Infinity when it cannot be serialized. */
function sizeOf(payload: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(payload) ?? '');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * Every signalling handler goes through the same gate: flood limit, size limit, schema. A refused
 * event is answered through its acknowledgement and relays nothing.
 */
function guarded<S extends z.ZodType>(
  limiter: SendLimiter,
  schema: S,
  handler: (data: z.infer<S>, reply: Ack) => unknown,
) {
  return async (payload: unknown, ack: unknown) => {
    const reply = ackOf(ack);
    if (!limiter.take()) return reply(refuse(CALL_REASONS.slowDown));
    if (sizeOf(payload) > CALL_PAYLOAD_MAX_BYTES) return reply(refuse(CALL_REASONS.tooLarge));
    const parsed = schema.safeParse(payload);
    if (!parsed.success) return reply(refuse(CALL_REASONS.invalid));
    await handler(parsed.data, reply);
  };
}

const callLimiter = (options: RealtimeOptions) =>
  new SendLimiter({ ...options, sendRateLimit: CALL_RATE_LIMIT, sendRateWindowMs: CALL_RATE_WINDOW_MS });

/** One side of a call: who is on the other end, and which socket of each side carries it. */
interface CallLeg {
  peerId: string;
  peerEmail: string;
  role: 'caller' | 'callee';
  state: 'ringing' | 'active';
  /** This side's socket in the call (the callee's is known once it accepts). */
  socketId?: string;
  /** One id per call, on both legs: a ring timer only ends the call it was started for. */
  callId?: string;
}

const isRingingCallee = (leg: CallLeg | undefined): leg is CallLeg =>
  leg !== undefined && leg.role === 'callee' && leg.state === 'ringing';

/**
 * `/video`: one-to-one calls by e-mail. The caller is the session user (`register-email` is a
 * no-op). Call state lives in memory, one leg per user, replicated to the other nodes through the
 * adapter when Redis is used; events reach the other party through `user:<id>` / socket-id rooms,
 * so they cross nodes too (docs/calls.md).
 */
export function registerVideoNamespace(ctx: AppContext, io: Server, options: RealtimeOptions) {
  const nsp = authenticatedNamespace(ctx, io, VIDEO_NAMESPACE);
  const legs = new Map<string, CallLeg>();
  // With Redis, every node keeps a replica of every leg (server-side events through the adapter),
  // so the callee's node knows the call the caller's node set up, and `busy` holds cluster-wide
  // (eventually: two simultaneous calls to one person on two nodes may both ring).
  const replicated = ctx.config.REDIS_URL !== undefined;
  const setLeg = (userId: string, leg: CallLeg) => {
    legs.set(userId, leg);
    if (replicated) nsp.serverSideEmit(LEG_SYNC, { userId, leg });
  };
  const deleteLeg = (userId: string) => {
    legs.delete(userId);
    if (replicated) nsp.serverSideEmit(LEG_SYNC, { userId, leg: null });
  };
  if (replicated) {
    nsp.on(LEG_SYNC, (msg: { userId: string; leg: CallLeg | null }) => {
      if (msg.leg) legs.set(msg.userId, msg.leg);
      else legs.delete(msg.userId);
    });
  }

  /** Where events for `userId`'s side of the call go: its call socket, or every tab while ringing. */
  const target = (userId: string) => {
    const leg = legs.get(userId);
    return leg?.socketId ?? userRoom(userId);
  };

  /** The caller's leg when `toEmail` is the other party of the caller's call; otherwise undefined. */
  const legWith = (userId: string, toEmail: string) => {
    const leg = legs.get(userId);
    return leg && leg.peerEmail === toEmail.trim().toLowerCase() ? leg : undefined;
  };

  // The caller's node times the ringing: a call nobody answers within `ringTimeoutMs` ends as
  // "No answer" for the caller and a missed call (a notification) for the callee.
  const ringTimers = new Map<string, ReturnType<typeof setTimeout>>();
  const clearRing = (callId: string | undefined) => {
    if (!callId) return;
    const timer = ringTimers.get(callId);
    if (timer) clearTimeout(timer);
    ringTimers.delete(callId);
  };
  const ringOut = (callId: string, caller: { id: string; email: string }) => {
    ringTimers.delete(callId);
    const mine = legs.get(caller.id);
    if (!mine || mine.callId !== callId || mine.state !== 'ringing') return;
    const theirs = legs.get(mine.peerId);
    const to = target(caller.id);
    deleteLeg(caller.id);
    if (theirs?.callId === callId) deleteLeg(mine.peerId);
    nsp.to(to).emit(VIDEO_EVENTS.callUnanswered, { from: mine.peerEmail });
    nsp.to(userRoom(mine.peerId)).emit(VIDEO_EVENTS.callMissed, { from: caller.email });
    // The bus logs a failing subscriber; a lost notification never breaks the call flow.
    void ctx.bus.emit('callMissed', { calleeId: mine.peerId, callerId: caller.id });
  };

  const hangUp = (userId: string, event: string, fromEmail: string) => {
    const leg = legs.get(userId);
    if (!leg) return;
    clearRing(leg.callId);
    const to = target(leg.peerId);
    deleteLeg(userId);
    if (legs.get(leg.peerId)?.peerId === userId) deleteLeg(leg.peerId);
    nsp.to(to).emit(event, { from: fromEmail });
  };

  // A call lasts only while its two people share a workspace (the rule that let it ring): when one
  // leaves or is removed, or the workspace goes, the calls of those who no longer share one end at
  // once, for both sides.
  const endCallsOfStrangers = async (userIds: readonly string[]) => {
    for (const userId of userIds) {
      const leg = legs.get(userId);
      if (!leg || (await sharesWorkspace(ctx, userId, leg.peerId))) continue;
      if (legs.get(userId) !== leg) continue;
      const myEmail = legs.get(leg.peerId)?.peerEmail;
      const mine = target(userId);
      hangUp(userId, VIDEO_EVENTS.callEnded, myEmail ?? '');
      nsp.to(mine).emit(VIDEO_EVENTS.callEnded, { from: leg.peerEmail });
    }
  };
  const onMemberRemoved = ({ userId }: { userId: string }) => {
    endCallsOfStrangers([userId]).catch((err) => ctx.log.error({ err }, 'ending calls failed'));
  };
  const onWorkspaceDeleted = ({ userIds }: { userIds: string[] }) => {
    endCallsOfStrangers(userIds).catch((err) => ctx.log.error({ err }, 'ending calls failed'));
  };
  const offs = [
    ctx.bus.on('memberRemoved', onMemberRemoved),
    ctx.bus.on('workspaceDeleted', onWorkspaceDeleted),
  ];

  nsp.on('connection', (socket: Socket) => {
    const user = (socket.data as SocketData).user;
    const me = { id: user.id, email: user.email.toLowerCase() };
    const limiter = callLimiter(options);

    socket.on(VIDEO_EVENTS.registerEmail, (_payload: unknown, ack: unknown) => ackOf(ack)(OK));

    socket.on(
      VIDEO_EVENTS.initiateCall,
      guarded(limiter, initiateCallPayload, async ({ toEmail, offer }, reply) => {
        try {
          const callee = await findCallee(ctx, me, toEmail);
          if (!callee) return reply(refuse(CALL_REASONS.unavailable));
          const online = await nsp.in(userRoom(callee.id)).fetchSockets();
          if (online.length === 0) return reply(refuse(CALL_REASONS.unavailable));
          if (legs.has(callee.id) || legs.has(me.id)) return reply(refuse(CALL_REASONS.busy));
          const callId = randomUUID();
          setLeg(me.id, {
            peerId: callee.id,
            peerEmail: callee.email.toLowerCase(),
            role: 'caller',
            state: 'ringing',
            socketId: socket.id,
            callId,
          });
          setLeg(callee.id, { peerId: me.id, peerEmail: me.email, role: 'callee', state: 'ringing', callId });
          const timer = setTimeout(() => ringOut(callId, me), options.ringTimeoutMs);
          timer.unref();
          ringTimers.set(callId, timer);
          reply(OK);
          nsp
            .to(userRoom(callee.id))
            .emit(VIDEO_EVENTS.incomingCall, { from: me.email, name: displayName(user), offer });
        } catch (err) {
          ctx.log.error({ err }, 'initiate-call failed');
          reply(refuse(CALL_REASONS.serverError));
        }
      }),
    );

    socket.on(
      VIDEO_EVENTS.acceptCall,
      guarded(limiter, acceptCallPayload, ({ to, answer }, reply) => {
        const leg = legWith(me.id, to);
        if (!isRingingCallee(leg)) return reply(refuse(CALL_REASONS.noCall));
        clearRing(leg.callId);
        setLeg(me.id, { ...leg, state: 'active', socketId: socket.id });
        const peer = legs.get(leg.peerId);
        if (peer) setLeg(leg.peerId, { ...peer, state: 'active' });
        reply(OK);
        nsp.to(target(leg.peerId)).emit(VIDEO_EVENTS.callAccepted, { from: me.email, answer });
        // The other tabs of the callee stop ringing: the call was answered elsewhere.
        socket.to(userRoom(me.id)).emit(VIDEO_EVENTS.answeredElsewhere, { from: leg.peerEmail });
      }),
    );

    socket.on(
      VIDEO_EVENTS.candidate,
      guarded(limiter, videoCandidatePayload, ({ to, candidate }, reply) => {
        const leg = legWith(me.id, to);
        // Only the socket carrying this side of the call may speak for it (another tab may not).
        if (!leg || (leg.socketId !== undefined && leg.socketId !== socket.id)) {
          return reply(refuse(CALL_REASONS.noCall));
        }
        reply(OK);
        nsp.to(target(leg.peerId)).emit(VIDEO_EVENTS.candidate, { from: me.email, candidate });
      }),
    );

    socket.on(
      VIDEO_EVENTS.endCall,
      guarded(limiter, callPeerPayload, ({ to }, reply) => {
        if (!legWith(me.id, to)) return reply(refuse(CALL_REASONS.noCall));
        reply(OK);
        hangUp(me.id, VIDEO_EVENTS.callEnded, me.email);
      }),
    );

    socket.on(
      VIDEO_EVENTS.rejectCall,
      guarded(limiter, callPeerPayload, ({ to }, reply) => {
        const leg = legWith(me.id, to);
        if (!isRingingCallee(leg)) return reply(refuse(CALL_REASONS.noCall));
        reply(OK);
        hangUp(me.id, VIDEO_EVENTS.callRejected, me.email);
        socket.to(userRoom(me.id)).emit(VIDEO_EVENTS.callEnded, { from: leg.peerEmail });
      }),
    );

    socket.on('disconnect', () => {
      const leg = legs.get(me.id);
      if (!leg) return;
      const carried = leg.socketId === socket.id;
      const ringingNoTabLeft =
        leg.socketId === undefined && (nsp.adapter.rooms.get(userRoom(me.id))?.size ?? 0) === 0;
      if (carried || ringingNoTabLeft) hangUp(me.id, VIDEO_EVENTS.callEnded, me.email);
    });
  });

  return {
    nsp,
    close: () => {
      for (const off of offs) off();
      for (const timer of ringTimers.values()) clearTimeout(timer);
      ringTimers.clear();
    },
  };
}

interface MeshSocketData extends SocketData {
  meshRoom?: string;
  /** How the room's media flows: through Janus (`sfu`) or peer to peer (`mesh`); everyone in a room uses the same. */
  callMode?: 'sfu' | 'mesh';
  /** What this participant said about its microphone and camera (`media-state`). */
  audioMuted?: boolean;
  videoMuted?: boolean;
  /** The channel whose meeting this socket follows (`watch-meeting`), if any. */
  watching?: string;
  /** SFU rooms: the feed this participant publishes, once Janus has confirmed it (`sfu-joined`). */
  sfuFeed?: string;
}

const meshRoomName = (room: string) => `mesh:${room}`;
const watchRoomName = (room: string) => `meeting-watch:${room}`;

const participantOf = (socketId: string, data: Partial<MeshSocketData>): MeshParticipant => ({
  id: socketId,
  email: data.user?.email ?? '',
  name: displayName(data.user),
  audioMuted: data.audioMuted ?? false,
  videoMuted: data.videoMuted ?? false,
  ...(data.sfuFeed ? { feed: data.sfuFeed } : {}),
});

/**
 * `/mesh`: rooms of up to six, each a channel the user may read or an ad-hoc room created by
 * `POST /api/calls/rooms`. A socket is in at most one room; offers, answers and candidates go only
 * to a socket of the sender's room. Membership is read through the adapter (`fetchSockets`), so a
 * room spans nodes. With Janus configured (`sfu`), a room that starts empty runs on a Janus
 * VideoRoom instead (up to `sfu.max`): `join` hands out a token valid while the socket stays in the
 * room, and the same events name the participants; the mesh relays are refused there.
 */
export function registerMeshNamespace(
  ctx: AppContext,
  io: Server,
  options: RealtimeOptions,
  adHoc: AdHocRooms,
  sfu: SfuRooms | null = null,
) {
  const nsp: Namespace = authenticatedNamespace(ctx, io, MESH_NAMESPACE);
  if (ctx.config.REDIS_URL !== undefined) {
    adHoc.onCreated = (id, expiresAt) => nsp.serverSideEmit(ROOM_SYNC, { id, expiresAt });
    nsp.on(ROOM_SYNC, (msg: { id: string; expiresAt: number }) => adHoc.add(msg.id, msg.expiresAt));
  }

  const mayJoin = async (user: SocketData['user'], room: string) => {
    if (adHoc.has(room)) return true;
    return mayReadChannel(user, room);
  };
  const mayReadChannel = async (user: SocketData['user'], room: string) => {
    try {
      await loadChannelByIdForUser(ctx, user, room);
      return true;
    } catch {
      return false;
    }
  };

  /** Who is in a room now, once per person, as its watchers see them. */
  const meetingOf = async (room: string): Promise<MeetingState> => {
    const present = await nsp.in(meshRoomName(room)).fetchSockets();
    const people = new Map<string, { email: string; name: string }>();
    for (const s of present) {
      const p = participantOf(s.id, s.data as Partial<MeshSocketData>);
      people.set(p.email, { email: p.email, name: p.name });
    }
    return { room, participants: [...people.values()] };
  };
  // The readers of a channel who follow its meeting (the channel view) hear of every join and leave.
  // Ad-hoc rooms have no watchers (only channels can be watched).
  const announceMeeting = (room: string) => {
    if (adHoc.has(room)) return;
    meetingOf(room)
      .then((state) => nsp.to(watchRoomName(room)).emit(MESH_EVENTS.meeting, state))
      .catch((err) => ctx.log.error({ err }, 'meeting announcement failed'));
  };

  // SFU grants of this node's sockets (socket id → room, token, feed). Kept out of socket.data, which
  // the adapter copies to other nodes on every fetchSockets.
  const sfuTokens = new Map<string, { room: string; token: string; feed: string }>();
  /** Takes the socket's SFU access away (its Janus sessions end) and closes the VideoRoom once empty. */
  const releaseSfu = async (socketId: string) => {
    const held = sfuTokens.get(socketId);
    if (!held || !sfu) return;
    sfuTokens.delete(socketId);
    try {
      await sfu.revoke(held.room, held.token);
      await serial.run(`room:${held.room}`, async () => {
        if ((await nsp.in(meshRoomName(held.room)).fetchSockets()).length === 0) await sfu.close(held.room);
      });
    } catch (err) {
      ctx.log.error({ err, room: held.room }, 'SFU access could not be revoked');
    }
  };

  const leaveRoom = async (socket: Socket) => {
    const data = socket.data as MeshSocketData;
    const room = data.meshRoom;
    if (!room) return;
    data.meshRoom = undefined;
    data.callMode = undefined;
    data.sfuFeed = undefined;
    data.audioMuted = false;
    data.videoMuted = false;
    await socket.leave(meshRoomName(room));
    nsp.to(meshRoomName(room)).emit(MESH_EVENTS.userLeft, { id: socket.id });
    announceMeeting(room);
    // Not awaited: a join holds its new room's lock while it leaves the old one, and releasing takes
    // the old room's lock; waiting here would deadlock two people swapping rooms at the same moment.
    void releaseSfu(socket.id);
  };

  const unwatch = async (socket: Socket) => {
    const data = socket.data as MeshSocketData;
    if (!data.watching) return;
    await socket.leave(watchRoomName(data.watching));
    data.watching = undefined;
  };

  // Channel access is re-checked every `roomCheckMs`: someone removed from a private channel (or
  // from the workspace) is taken out of its meeting, told by `room-closed`, and the others get
  // `user-left`. Ad-hoc rooms are links: whoever joined stays.
  const prune = async () => {
    for (const socket of [...nsp.sockets.values()]) {
      const data = socket.data as MeshSocketData;
      const watched = data.watching;
      if (watched && !(await mayReadChannel(data.user, watched)) && data.watching === watched) {
        await unwatch(socket);
      }
      const room = data.meshRoom;
      if (!room || adHoc.has(room)) continue;
      if (await mayReadChannel(data.user, room)) continue;
      if (data.meshRoom !== room) continue;
      // Told first: leaving ends its Janus session too, and the page should say why the media stopped.
      socket.emit(MESH_EVENTS.roomClosed, { room, reason: CALL_REASONS.forbidden });
      await leaveRoom(socket);
    }
  };
  // SFU rooms with participants on this node: a publisher whose feed nobody was granted (named in
  // the room, or granted here and not yet named) in two checks running is evicted (`SfuRooms.evict`).
  // Two checks: a participant granted on another node may not have named its feed yet.
  let unnamedBefore = new Map<string, Set<string>>();
  const auditSfu = async () => {
    if (!sfu) return;
    const rooms = new Set<string>();
    for (const socket of nsp.sockets.values()) {
      const data = socket.data as MeshSocketData;
      if (data.callMode === 'sfu' && data.meshRoom) rooms.add(data.meshRoom);
    }
    const unnamedNow = new Map<string, Set<string>>();
    for (const room of rooms) {
      const inJanus = await sfu.participants(room);
      const present = await nsp.in(meshRoomName(room)).fetchSockets();
      const granted = new Set(present.map((s) => (s.data as Partial<MeshSocketData>).sfuFeed));
      for (const held of sfuTokens.values()) if (held.room === room) granted.add(held.feed);
      const unnamed = inJanus.filter((feed) => !granted.has(feed));
      const evict = unnamed.filter((feed) => unnamedBefore.get(room)?.has(feed));
      unnamedNow.set(room, new Set(unnamed.filter((feed) => !evict.includes(feed))));
      if (evict.length > 0) {
        ctx.log.warn({ room, feeds: evict }, 'SFU publishers nobody was granted: evicting');
        await sfu.evict(room, evict);
      }
    }
    unnamedBefore = unnamedNow;
  };

  let checking = false;
  let again = false;
  const check = () => {
    if (checking) {
      again = true;
      return;
    }
    checking = true;
    prune()
      .catch((err) => ctx.log.error({ err }, 'mesh room check failed'))
      .then(auditSfu)
      .catch((err) => ctx.log.error({ err }, 'SFU room audit failed'))
      .finally(() => {
        checking = false;
        if (again) {
          again = false;
          check();
        }
      });
  };
  const serial = new KeyedSerial();
  const pruneTimer = setInterval(check, options.roomCheckMs);
  pruneTimer.unref();
  // A removal made on this node takes effect at once (other nodes notice on their next check).
  const onMembershipChange = () => check();
  const offs = [
    ctx.bus.on('memberRemoved', onMembershipChange),
    ctx.bus.on('workspaceDeleted', onMembershipChange),
    ctx.bus.on('channelDeleted', onMembershipChange),
    // Someone taken off a private channel (or a channel made private) leaves its meeting at once too.
    ctx.bus.on('channelChanged', ({ lostAccess }) => {
      if (lostAccess.length > 0) check();
    }),
  ];

  nsp.on('connection', (socket: Socket) => {
    const data = socket.data as MeshSocketData;
    const limiter = callLimiter(options);
    const leave = () => leaveRoom(socket);

    const others = async () => {
      if (!data.meshRoom) return [];
      const members = await nsp.in(meshRoomName(data.meshRoom)).fetchSockets();
      return members.filter((s) => s.id !== socket.id);
    };

    // Joins and leaves of one socket run one at a time (two joins at once must not leave it in two
    // rooms), and so do the capacity checks of one room on this node (two joins must not both see 5).
    socket.on(
      MESH_EVENTS.join,
      guarded(limiter, meshJoinPayload, ({ room }, reply) =>
        serial.run(`socket:${socket.id}`, () =>
          serial.run(`room:${room}`, async () => {
            try {
              if (!(await mayJoin(data.user, room))) return reply(refuse(CALL_REASONS.forbidden));
              if (socket.disconnected) return reply(refuse(CALL_REASONS.forbidden));
              if (data.meshRoom === room) return reply(OK);
              const present = await nsp.in(meshRoomName(room)).fetchSockets();
              // A room keeps the mode it started with; an empty one starts on Janus when it is configured.
              const running = (present[0]?.data as Partial<MeshSocketData> | undefined)?.callMode;
              const mode = running ?? (sfu ? 'sfu' : 'mesh');
              if (mode === 'sfu' && !sfu) return reply(refuse(CALL_REASONS.serverError));
              const max = mode === 'sfu' && sfu ? sfu.max : MESH_ROOM_MAX;
              if (present.length >= max) return reply(refuse(CALL_REASONS.roomFull));
              await leave();
              const grant = mode === 'sfu' && sfu ? await sfu.grant(room) : undefined;
              if (grant) sfuTokens.set(socket.id, { room, token: grant.token, feed: grant.feedId });
              // Gone while Janus answered: the disconnect handler saw no room, so release here.
              if (socket.disconnected) return void releaseSfu(socket.id);
              data.meshRoom = room;
              data.callMode = mode;
              socket.join(meshRoomName(room));
              reply(grant ? { ok: true, sfu: grant } : OK);
              socket.to(meshRoomName(room)).emit(MESH_EVENTS.userJoined, participantOf(socket.id, data));
              announceMeeting(room);
            } catch (err) {
              ctx.log.error({ err }, 'mesh join failed');
              reply(refuse(CALL_REASONS.serverError));
            }
          }),
        ),
      ),
    );

    socket.on(MESH_EVENTS.leave, async (_payload: unknown, ack: unknown) => {
      await serial.run(`socket:${socket.id}`, leave);
      ackOf(ack)(OK);
    });

    socket.on(MESH_EVENTS.getUsers, async (_payload: unknown, ack: unknown) => {
      const reply = ackOf(typeof _payload === 'function' ? _payload : ack);
      if (!limiter.take()) return reply(refuse(CALL_REASONS.slowDown));
      const list = (await others()).map((s) => participantOf(s.id, s.data as Partial<MeshSocketData>));
      socket.emit(MESH_EVENTS.userList, list);
      reply({ ok: true, users: list });
    });

    const relay =
      (event: string, field: 'offer' | 'answer' | 'candidate') =>
      async (msg: { to: string } & Record<string, unknown>, reply: Ack) => {
        // Media of an SFU room goes through Janus: there is nothing to relay peer to peer.
        if (data.callMode === 'sfu') return reply(refuse(CALL_REASONS.forbidden));
        const peers = await others();
        if (!peers.some((s) => s.id === msg.to)) return reply(refuse(CALL_REASONS.forbidden));
        reply(OK);
        nsp.to(msg.to).emit(event, { from: socket.id, [field]: msg[field] });
      };

    socket.on(MESH_EVENTS.offer, guarded(limiter, meshOfferPayload, relay(MESH_EVENTS.offer, 'offer')));
    socket.on(MESH_EVENTS.answer, guarded(limiter, meshAnswerPayload, relay(MESH_EVENTS.answer, 'answer')));
    socket.on(
      MESH_EVENTS.candidate,
      guarded(limiter, meshCandidatePayload, relay(MESH_EVENTS.candidate, 'candidate')),
    );

    // Mute and camera state: only a participant of a room may say it, and only to that room.
    socket.on(
      MESH_EVENTS.mediaState,
      guarded(limiter, meshMediaStatePayload, ({ audioMuted, videoMuted }, reply) => {
        const room = data.meshRoom;
        if (!room) return reply(refuse(CALL_REASONS.forbidden));
        data.audioMuted = audioMuted;
        data.videoMuted = videoMuted;
        reply(OK);
        socket.to(meshRoomName(room)).emit(MESH_EVENTS.mediaState, { id: socket.id, audioMuted, videoMuted });
      }),
    );

    // SFU rooms: the participant says its feed is in the VideoRoom; once Janus confirms it the feed
    // is named to the room. A feed id nobody else knew cannot have been taken by anyone else.
    socket.on(
      MESH_EVENTS.sfuJoined,
      guarded(limiter, z.object({}), (_msg, reply) =>
        serial.run(`socket:${socket.id}`, async () => {
          const held = sfuTokens.get(socket.id);
          const room = data.meshRoom;
          if (!held || !sfu || room !== held.room) return reply(refuse(CALL_REASONS.forbidden));
          if (data.sfuFeed === held.feed) return reply(OK);
          try {
            if (!(await sfu.participants(room)).includes(held.feed))
              return reply(refuse(CALL_REASONS.noCall));
          } catch (err) {
            ctx.log.error({ err }, 'sfu-joined check failed');
            return reply(refuse(CALL_REASONS.serverError));
          }
          if (data.meshRoom !== room || sfuTokens.get(socket.id) !== held)
            return reply(refuse(CALL_REASONS.forbidden));
          data.sfuFeed = held.feed;
          reply(OK);
          socket.to(meshRoomName(room)).emit(MESH_EVENTS.userJoined, participantOf(socket.id, data));
        }),
      ),
    );

    // "Meeting in progress" in the channel view: readers of the channel only (as for `join`).
    socket.on(
      MESH_EVENTS.watchMeeting,
      guarded(limiter, meshJoinPayload, ({ room }, reply) =>
        serial.run(`socket:${socket.id}`, async () => {
          try {
            if (!(await mayReadChannel(data.user, room))) return reply(refuse(CALL_REASONS.forbidden));
            if (socket.disconnected) return reply(refuse(CALL_REASONS.forbidden));
            await unwatch(socket);
            data.watching = room;
            socket.join(watchRoomName(room));
            reply({ ok: true, meeting: await meetingOf(room) });
          } catch (err) {
            ctx.log.error({ err }, 'watch-meeting failed');
            reply(refuse(CALL_REASONS.serverError));
          }
        }),
      ),
    );
    socket.on(MESH_EVENTS.unwatchMeeting, async (_payload: unknown, ack: unknown) => {
      await serial.run(`socket:${socket.id}`, () => unwatch(socket));
      ackOf(ack)(OK);
    });

    socket.on('disconnect', () => {
      const room = data.meshRoom;
      if (room) {
        nsp.to(meshRoomName(room)).emit(MESH_EVENTS.userLeft, { id: socket.id });
        announceMeeting(room);
      }
      void releaseSfu(socket.id);
    });
  });

  return {
    nsp,
    close: () => {
      clearInterval(pruneTimer);
      for (const off of offs) off();
      // Whoever is still in a meeting loses its Janus access with this node.
      const held = [...sfuTokens.keys()].map(releaseSfu);
      void Promise.allSettled(held).then(() => sfu?.dispose());
    },
  };
}
