import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { SfuGrant } from '@cohort/shared/calls';
import WebSocket from 'ws';
import type { Config } from '../../config.ts';

const VIDEOROOM = 'janus.plugin.videoroom';
const REQUEST_TIMEOUT_MS = 5000;
/** Janus's error codes this code tells apart (janus.h, janus_videoroom.c). */
const NO_SUCH_ROOM = 426;
const ROOM_EXISTS = 427;
const TOKEN_UNKNOWN = 490;

export class JanusError extends Error {
  constructor(
    readonly code: number,
    reason: string,
  ) {
    super(`Janus: ${reason} (${code})`);
  }
}

type Reply = Record<string, unknown>;

/**
 * Janus's admin API over one WebSocket (`janus-admin-protocol`), opened on first use and again
 * after it drops. Every request carries the admin secret, which never leaves this process.
 */
export class JanusAdmin {
  private socket: Promise<WebSocket> | null = null;
  private readonly pending = new Map<string, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly url: string,
    private readonly secret: string,
  ) {}

  private open(): Promise<WebSocket> {
    if (this.socket) return this.socket;
    const opened = new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(this.url, 'janus-admin-protocol');
      ws.on('open', () => resolve(ws));
      ws.on('message', (raw) => this.receive(String(raw)));
      ws.on('error', (err) => reject(err));
      ws.on('close', () => {
        if (this.socket === opened) this.socket = null;
        for (const { reject: fail } of this.pending.values())
          fail(new Error('Janus admin connection closed'));
        this.pending.clear();
      });
    });
    opened.catch(() => {
      if (this.socket === opened) this.socket = null;
    });
    this.socket = opened;
    return opened;
  }

  private receive(text: string) {
    let reply: Reply;
    try {
      reply = JSON.parse(text) as Reply;
    } catch {
      return;
    }
    const waiting = this.pending.get(String(reply.transaction));
    if (!waiting) return;
    this.pending.delete(String(reply.transaction));
    if (reply.janus === 'error') {
      const error = reply.error as { code: number; reason: string };
      waiting.reject(new JanusError(error.code, error.reason));
    } else waiting.resolve(reply);
  }

  async request(body: Reply): Promise<Reply> {
    const ws = await this.open();
    const transaction = randomUUID();
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        reject(new Error(`Janus admin request ${String(body.janus)} timed out`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(transaction, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      ws.send(JSON.stringify({ ...body, transaction, admin_secret: this.secret }));
    });
  }

  /** A VideoRoom request sent through the admin API (`message_plugin`): no Janus session needed. */
  async videoroom(request: Reply): Promise<Reply> {
    const reply = await this.request({ janus: 'message_plugin', plugin: VIDEOROOM, request });
    const response = reply.response as Reply;
    if (typeof response?.error_code === 'number') {
      throw new JanusError(response.error_code, String(response.error));
    }
    return response;
  }

  close() {
    void this.socket?.then((ws) => ws.close()).catch(() => {});
    this.socket = null;
  }
}

export interface JanusSettings {
  JANUS_URL: string;
  JANUS_ADMIN_URL: string;
  JANUS_ADMIN_SECRET: string;
  JANUS_ROOM_ADMIN_KEY?: string | undefined;
  JANUS_ROOM_MAX: number;
}

const ignoring = (code: number) => (err: unknown) => {
  if (!(err instanceof JanusError && err.code === code)) throw err;
};

/**
 * Cohort's rooms on a Janus VideoRoom (issue 23). Janus runs with `token_auth` (stored tokens) and
 * string room ids; each participant gets a token of its own, added to Janus (the plugins it may
 * use) and to its VideoRoom's allowed list. The token lives as long as the participant's `/mesh`
 * socket stays in the room: `revoke` takes it off both lists and destroys every Janus session
 * created with it, so media stops at once when someone leaves, disconnects or loses access. A
 * room's secret is derived from the admin secret, so every node can manage every room.
 */
export class SfuRooms {
  readonly max: number;
  private readonly admin: JanusAdmin;

  constructor(private readonly config: JanusSettings) {
    this.admin = new JanusAdmin(config.JANUS_ADMIN_URL, config.JANUS_ADMIN_SECRET);
    this.max = config.JANUS_ROOM_MAX;
  }

  /** Janus settings from the configuration, or null when meetings stay on the mesh. */
  static fromConfig(config: Config): SfuRooms | null {
    const { JANUS_URL, JANUS_ADMIN_URL, JANUS_ADMIN_SECRET } = config;
    if (!JANUS_URL || !JANUS_ADMIN_URL || !JANUS_ADMIN_SECRET) return null;
    return new SfuRooms({ ...config, JANUS_URL, JANUS_ADMIN_URL, JANUS_ADMIN_SECRET });
  }

  /** The VideoRoom of a Cohort room (a channel id or an ad-hoc room id). */
  janusRoom(room: string) {
    return `cohort-${room}`;
  }

  private secretOf(room: string) {
    return createHmac('sha256', this.config.JANUS_ADMIN_SECRET)
      .update(`videoroom:${room}`)
      .digest('base64url');
  }

  private async ensureRoom(room: string) {
    await this.admin
      .videoroom({
        request: 'create',
        room: this.janusRoom(room),
        secret: this.secretOf(room),
        ...(this.config.JANUS_ROOM_ADMIN_KEY ? { admin_key: this.config.JANUS_ROOM_ADMIN_KEY } : {}),
        publishers: this.max,
        // An empty allowed list: nobody joins without a token the server added.
        allowed: [],
        audiolevel_event: true,
        audio_active_packets: 50,
        audio_level_average: 40,
        bitrate: 512_000,
      })
      .catch(ignoring(ROOM_EXISTS));
  }

  private allowed(room: string, action: 'add' | 'remove', token: string) {
    return this.admin.videoroom({
      request: 'allowed',
      room: this.janusRoom(room),
      secret: this.secretOf(room),
      action,
      allowed: [token],
    });
  }

  /**
   * A token and a feed id for one participant of `room`. Both are random and told only to that
   * participant: the feed id reaches the others once Janus has it (`sfu-joined`).
   */
  async grant(room: string): Promise<SfuGrant> {
    const token = randomBytes(24).toString('base64url');
    const feedId = `f-${randomBytes(12).toString('base64url')}`;
    await this.ensureRoom(room);
    await this.admin.request({ janus: 'add_token', token, plugins: [VIDEOROOM] });
    try {
      await this.allowed(room, 'add', token).catch(async (err) => {
        // The room was closed by its last participant's node in between: open it again.
        if (!(err instanceof JanusError && err.code === NO_SUCH_ROOM)) throw err;
        await this.ensureRoom(room);
        await this.allowed(room, 'add', token);
      });
    } catch (err) {
      await this.admin.request({ janus: 'remove_token', token }).catch(() => {});
      throw err;
    }
    return { server: this.config.JANUS_URL, token, room: this.janusRoom(room), feedId, max: this.max };
  }

  /** Ends a participant's access: no new join, no further request, and its sessions gone now. */
  async revoke(room: string, token: string) {
    await this.allowed(room, 'remove', token).catch(ignoring(NO_SUCH_ROOM));
    await this.admin.request({ janus: 'remove_token', token }).catch(ignoring(TOKEN_UNKNOWN));
    await this.destroySessionsOf(token);
  }

  /**
   * Every handle Janus has: its session, the token it was attached with and, for a VideoRoom
   * publisher, its room and feed id (`handle_info` records them; that is what ties media to people).
   */
  private async handles() {
    const found: { session: number; token?: string; room?: string; feed?: string }[] = [];
    const { sessions = [] } = (await this.admin.request({ janus: 'list_sessions' })) as {
      sessions?: number[];
    };
    for (const session_id of sessions) {
      const { handles = [] } = (await this.admin
        .request({ janus: 'list_handles', session_id })
        .catch(() => ({}))) as { handles?: number[] };
      for (const handle_id of handles) {
        const { info } = (await this.admin
          .request({ janus: 'handle_info', session_id, handle_id })
          .catch(() => ({}))) as {
          info?: { token?: string; plugin_specific?: { type?: string; room?: unknown; id?: unknown } };
        };
        const plugin = info?.plugin_specific;
        const publisher = plugin?.type === 'publisher';
        found.push({
          session: session_id,
          token: info?.token,
          room: publisher ? String(plugin.room) : undefined,
          feed: publisher ? String(plugin.id) : undefined,
        });
      }
    }
    return found;
  }

  private async destroySessionsOf(token: string) {
    const sessions = new Set((await this.handles()).filter((h) => h.token === token).map((h) => h.session));
    for (const session_id of sessions) {
      await this.admin.request({ janus: 'destroy_session', session_id }).catch(() => {});
    }
  }

  /**
   * Publishers in a room under feed ids nobody was granted (a browser that publishes more than its
   * own feed): whoever made them loses its access to the room, as if it had left.
   */
  async evict(room: string, feeds: string[]) {
    const tokens = new Set(
      (await this.handles())
        .filter((h) => h.room === this.janusRoom(room) && h.feed !== undefined && feeds.includes(h.feed))
        .flatMap((h) => (h.token ? [h.token] : [])),
    );
    for (const token of tokens) await this.revoke(room, token);
  }

  /** Destroys the VideoRoom once nobody is in the Cohort room any more. */
  async close(room: string) {
    await this.admin
      .videoroom({ request: 'destroy', room: this.janusRoom(room), secret: this.secretOf(room) })
      .catch(ignoring(NO_SUCH_ROOM));
  }

  /** Checks that Janus answers with the configured secret (used in tests and at start). */
  async listRooms(): Promise<string[]> {
    const response = (await this.admin.videoroom({ request: 'list' })) as { list?: { room: string }[] };
    return (response.list ?? []).map((r) => String(r.room));
  }

  /** Who is in a room's VideoRoom (publishers, published or not yet), as Janus sees it. */
  async participants(room: string): Promise<string[]> {
    const response = (await this.admin
      .videoroom({ request: 'listparticipants', room: this.janusRoom(room) })
      .catch(ignoring(NO_SUCH_ROOM))) as { participants?: { id: string }[] } | undefined;
    return (response?.participants ?? []).map((p) => String(p.id));
  }

  /** Janus sessions open now (tests). */
  async sessions(): Promise<number[]> {
    const { sessions = [] } = (await this.admin.request({ janus: 'list_sessions' })) as {
      sessions?: number[];
    };
    return sessions;
  }

  dispose() {
    this.admin.close();
  }
}
