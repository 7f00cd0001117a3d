import { z } from 'zod';

/** Signalling of video calls (issue 6): one-to-one on `/video`, rooms of up to six on `/mesh`. */
export const VIDEO_NAMESPACE = '/video';
export const MESH_NAMESPACE = '/mesh';

/** A relayed payload (offer, answer, candidate) may not serialize to more than this. */
export const CALL_PAYLOAD_MAX_BYTES = 64 * 1024;
/** Signalling events a socket may send per window before being told to slow down. */
export const CALL_RATE_LIMIT = 50;
export const CALL_RATE_WINDOW_MS = 5000;
/** Participants of one mesh room. */
export const MESH_ROOM_MAX = 6;
/** How long issued TURN credentials stay valid. */
export const TURN_CREDENTIAL_TTL_SECONDS = 3600;
/** How long a 1:1 call rings before it is a missed call ("No answer" for the caller). */
export const CALL_RING_TIMEOUT_MS = 30_000;

export const VIDEO_EVENTS = {
  // client → server
  registerEmail: 'register-email',
  initiateCall: 'initiate-call',
  acceptCall: 'accept-call',
  rejectCall: 'reject-call',
  endCall: 'end-call',
  candidate: 'candidate',
  // server → client
  incomingCall: 'incoming-call',
  callAccepted: 'call-accepted',
  callRejected: 'call-rejected',
  callEnded: 'call-ended',
  /** `{from: callerEmail}` to the callee's other tabs: the call was accepted in another tab. */
  answeredElsewhere: 'answered-elsewhere',
  /** `{from: calleeEmail}` to the caller: nobody answered in time. */
  callUnanswered: 'call-unanswered',
  /** `{from: callerEmail}` to every tab of the callee: the call rang out (a missed call). */
  callMissed: 'call-missed',
} as const;

export const MESH_EVENTS = {
  // client → server
  join: 'join',
  leave: 'leave',
  getUsers: 'get-users',
  offer: 'offer',
  answer: 'answer',
  candidate: 'candidate',
  // server → client
  userList: 'user-list',
  userJoined: 'user-joined',
  userLeft: 'user-left',
  /** `{room, reason}`: this socket was taken out of its room (channel access lost). */
  roomClosed: 'room-closed',
  /** client → server `{audioMuted, videoMuted}` (only from a socket in a room); server → room `{id, audioMuted, videoMuted}`. */
  mediaState: 'media-state',
  /** client → server `{room}`: follow whether a channel's meeting runs (readers of the channel only). */
  watchMeeting: 'watch-meeting',
  unwatchMeeting: 'unwatch-meeting',
  /** server → watchers `{room, participants}` whenever someone joins or leaves the channel's meeting. */
  meeting: 'meeting',
} as const;

export const CALL_REASONS = {
  busy: 'busy',
  unavailable: 'unavailable',
  forbidden: 'forbidden',
  roomFull: 'room full',
  noCall: 'no call',
  tooLarge: 'too large',
  slowDown: 'slow down',
  invalid: 'invalid payload',
  serverError: 'server error',
} as const;

/** RTCSessionDescriptionInit as it travels. */
export const sessionDescription = z.object({
  type: z.enum(['offer', 'answer', 'pranswer', 'rollback']),
  sdp: z.string().max(CALL_PAYLOAD_MAX_BYTES),
});
export type SessionDescription = z.infer<typeof sessionDescription>;

/** RTCIceCandidateInit as it travels (an empty candidate string marks the end of candidates). */
export const iceCandidate = z.object({
  candidate: z.string().max(4096),
  sdpMid: z.string().max(256).nullish(),
  sdpMLineIndex: z.number().int().min(0).max(1024).nullish(),
  usernameFragment: z.string().max(256).nullish(),
});
export type IceCandidate = z.infer<typeof iceCandidate>;

const email = z.string().trim().min(1).max(320);

export const initiateCallPayload = z.object({
  toEmail: email,
  offer: sessionDescription.refine((d) => d.type === 'offer', 'An offer is required'),
});
export const acceptCallPayload = z.object({
  to: email,
  answer: sessionDescription.refine((d) => d.type === 'answer', 'An answer is required'),
});
export const videoCandidatePayload = z.object({ to: email, candidate: iceCandidate });
export const callPeerPayload = z.object({ to: email });

export type CallAck = { ok: true } | { ok: false; reason: string };

export const meshJoinPayload = z.object({ room: z.string().trim().min(1).max(100) });
const socketId = z.string().min(1).max(100);
export const meshOfferPayload = z.object({ to: socketId, offer: sessionDescription });
export const meshAnswerPayload = z.object({ to: socketId, answer: sessionDescription });
export const meshCandidatePayload = z.object({ to: socketId, candidate: iceCandidate });

export const meshParticipant = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  audioMuted: z.boolean().optional(),
  videoMuted: z.boolean().optional(),
});
export type MeshParticipant = z.infer<typeof meshParticipant>;

export const meshMediaStatePayload = z.object({ audioMuted: z.boolean(), videoMuted: z.boolean() });
export const participantState = meshMediaStatePayload.extend({ id: z.string() });
export type ParticipantState = z.infer<typeof participantState>;

/** The people in a channel's meeting, as its readers see them (empty: no meeting). */
export const meetingState = z.object({
  room: z.string(),
  participants: z.array(z.object({ email: z.string(), name: z.string() })),
});
export type MeetingState = z.infer<typeof meetingState>;

/** `incoming-call`: the caller's e-mail and display name (names.ts), and the offer. */
export const incomingCallPayload = z.object({
  from: z.string(),
  name: z.string().optional(),
  offer: sessionDescription,
});

export const iceServer = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export const iceServersResponse = z.object({ iceServers: z.array(iceServer) });
export type IceServersResponse = z.infer<typeof iceServersResponse>;

export const createRoomResponse = z.object({ roomId: z.string(), url: z.string() });
export type CreateRoomResponse = z.infer<typeof createRoomResponse>;
