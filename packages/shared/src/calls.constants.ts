// What calls.ts defines without zod, so that a screen can import it without the schemas (issue 21: zod stays out of
// the channel page's first download). calls.ts re-exports all of it.

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

/** Participants of one SFU (Janus VideoRoom) room unless the server's JANUS_ROOM_MAX says otherwise. */
export const SFU_ROOM_MAX = 25;

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
  /**
   * client → server, SFU rooms: "I have joined the VideoRoom under my granted feed id". The server
   * checks it with Janus, then names the feed to the room (`user-joined` again, with `feed`). Until
   * then nobody else knows the id, so nobody can publish under someone else's name.
   */
  sfuJoined: 'sfu-joined',
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
