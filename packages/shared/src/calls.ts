import { z } from 'zod';
import { CALL_PAYLOAD_MAX_BYTES } from './calls.constants.ts';

export * from './calls.constants.ts';

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

/**
 * What `join` answers in a room that runs on the SFU (Janus VideoRoom) instead of the mesh: where
 * Janus is, a token valid only while this socket stays in the room (for Janus itself and for this
 * VideoRoom's allowed list), the VideoRoom's id and a random feed id to publish under, told to the
 * others (`feed` in `user-list`/`user-joined`) only once Janus has it (`sfu-joined`). A mesh room's
 * `join` answers plain `{ok: true}`.
 */
export const sfuGrant = z.object({
  server: z.string(),
  token: z.string(),
  room: z.string(),
  feedId: z.string(),
  max: z.number().int(),
});
export type SfuGrant = z.infer<typeof sfuGrant>;
export const meshJoinAck = z.union([
  z.object({ ok: z.literal(true), sfu: sfuGrant.optional() }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);
export type MeshJoinAck = z.infer<typeof meshJoinAck>;
const socketId = z.string().min(1).max(100);
export const meshOfferPayload = z.object({ to: socketId, offer: sessionDescription });
export const meshAnswerPayload = z.object({ to: socketId, answer: sessionDescription });
export const meshCandidatePayload = z.object({ to: socketId, candidate: iceCandidate });

export const meshParticipant = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  /** SFU rooms: the Janus feed this participant publishes, once the server has checked it. */
  feed: z.string().optional(),
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
