import { randomUUID } from 'node:crypto';
import type { ActivityState, PresenceStatus } from '@cohort/shared/presence';
import type { AppContext } from '../../context.ts';

/** A user's status changed to `status` (what gets announced). */
export type StatusChange = [userId: string, status: PresenceStatus];
/** This node's view of a user: the best state among their tabs here, or null when none is left. */
export type LocalEntry = [userId: string, state: ActivityState | null];

/**
 * Where each node's view of its users meets the others'. A user is online when any tab on any live
 * node is active, away when tabs remain but all are idle, offline otherwise. Writes answer which
 * statuses actually changed, so a status is announced once per change, not once per node or tab.
 */
export interface PresenceStore {
  /** Registers this node (before it accepts sockets). */
  start(): Promise<void>;
  write(entries: LocalEntry[]): Promise<StatusChange[]>;
  read(userIds: string[]): Promise<Map<string, PresenceStatus>>;
  /**
   * Periodic: proves this node alive (rewriting its view when others had already taken it for dead)
   * and retires dead nodes, answering the changes that causes.
   */
  tick(current: () => LocalEntry[]): Promise<StatusChange[]>;
  /** Shutdown: this node's users keep their status `graceMs` more (clients reconnect elsewhere), then lapse. */
  stop(graceMs: number): Promise<void>;
}

const fold = (states: Iterable<ActivityState | undefined>): PresenceStatus => {
  let status: PresenceStatus = 'offline';
  for (const s of states) {
    if (s === 'active') return 'online';
    if (s === 'idle') status = 'away';
  }
  return status;
};

/** One node alone (no REDIS_URL): its view is the whole truth. */
export class MemoryPresenceStore implements PresenceStore {
  private readonly states = new Map<string, ActivityState>();

  async start() {}

  async write(entries: LocalEntry[]): Promise<StatusChange[]> {
    const changes: StatusChange[] = [];
    for (const [userId, state] of entries) {
      const before = fold([this.states.get(userId)]);
      if (state) this.states.set(userId, state);
      else this.states.delete(userId);
      const after = fold([state ?? undefined]);
      if (after !== before) changes.push([userId, after]);
    }
    return changes;
  }

  async read(userIds: string[]) {
    return new Map(userIds.map((id) => [id, fold([this.states.get(id)])]));
  }

  async tick(): Promise<StatusChange[]> {
    return [];
  }

  async stop() {}
}

// Redis layout (prefix = REDIS_STREAM): `<prefix>:presence:nodes` a sorted set of node ids scored by
// their last heartbeat (Redis' own clock, so skewed node clocks do not matter); `<prefix>:presence:node:<id>`
// a hash user id → 'active'|'idle' (that node's view); `<prefix>:presence:shown` a hash user id → the
// last announced status (absent: offline). Each script runs atomically, so two nodes changing one
// user's tabs at once still announce each change once and in order.

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// KEYS: nodes, shown. ARGV: node key prefix, this node, timeout, then user/state pairs
// (state '' removes this node's entry, '-' only recomputes). Returns the changes, flattened.
const WRITE = `${NOW}
local prefix, node, timeout = ARGV[1], ARGV[2], tonumber(ARGV[3])
local live = redis.call('ZRANGEBYSCORE', KEYS[1], now - timeout, '+inf')
local changed = {}
for i = 4, #ARGV, 2 do
  local user, state = ARGV[i], ARGV[i + 1]
  if state == '' then redis.call('HDEL', prefix .. node, user)
  elseif state ~= '-' then redis.call('HSET', prefix .. node, user, state) end
  local status = 'offline'
  for _, n in ipairs(live) do
    local s = redis.call('HGET', prefix .. n, user)
    if s == 'active' then status = 'online' break end
    if s == 'idle' then status = 'away' end
  end
  local shown = redis.call('HGET', KEYS[2], user) or 'offline'
  if shown ~= status then
    if status == 'offline' then redis.call('HDEL', KEYS[2], user) else redis.call('HSET', KEYS[2], user, status) end
    table.insert(changed, user)
    table.insert(changed, status)
  end
end
return changed`;

// KEYS: nodes. ARGV: node key prefix, timeout, user ids. Returns one status per user.
const READ = `${NOW}
local prefix, timeout = ARGV[1], tonumber(ARGV[2])
local live = redis.call('ZRANGEBYSCORE', KEYS[1], now - timeout, '+inf')
local out = {}
for i = 3, #ARGV do
  local status = 'offline'
  for _, n in ipairs(live) do
    local s = redis.call('HGET', prefix .. n, ARGV[i])
    if s == 'active' then status = 'online' break end
    if s == 'idle' then status = 'away' end
  end
  table.insert(out, status)
end
return out`;

// KEYS: nodes. ARGV: this node, score offset from now. Returns 1 when the node was not registered
// (new, or retired by another node after a stall).
const HEARTBEAT = `${NOW}
return redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])`;

// KEYS: nodes. ARGV: node key prefix, timeout. Retires nodes silent for longer than the timeout and
// returns the users they held (to recompute). ZREM decides which node does it: exactly one.
const SWEEP = `${NOW}
local prefix, timeout = ARGV[1], tonumber(ARGV[2])
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - timeout))
local users = {}
for _, n in ipairs(dead) do
  if redis.call('ZREM', KEYS[1], n) == 1 then
    for _, u in ipairs(redis.call('HKEYS', prefix .. n)) do table.insert(users, u) end
    redis.call('DEL', prefix .. n)
  end
end
return users`;

interface RedisLike {
  connect(): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  quit(): Promise<unknown>;
  destroy(): void;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/** Many nodes (REDIS_URL): each node's view in Redis, nodes alive by heartbeat. */
export class RedisPresenceStore implements PresenceStore {
  readonly nodeId = randomUUID();
  private readonly nodesKey: string;
  private readonly shownKey: string;
  private readonly nodePrefix: string;

  constructor(
    private readonly client: RedisLike,
    prefix: string,
    private readonly timeoutMs: () => number,
  ) {
    this.nodesKey = `${prefix}:presence:nodes`;
    this.shownKey = `${prefix}:presence:shown`;
    this.nodePrefix = `${prefix}:presence:node:`;
  }

  async start() {
    await this.client.connect();
    await this.heartbeat(0);
  }

  private heartbeat(offsetMs: number) {
    return this.client.eval(HEARTBEAT, { keys: [this.nodesKey], arguments: [this.nodeId, String(offsetMs)] });
  }

  private async writeRaw(pairs: [string, string][]): Promise<StatusChange[]> {
    if (pairs.length === 0) return [];
    const flat = (await this.client.eval(WRITE, {
      keys: [this.nodesKey, this.shownKey],
      arguments: [this.nodePrefix, this.nodeId, String(this.timeoutMs()), ...pairs.flat()],
    })) as string[];
    const changes: StatusChange[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      changes.push([flat[i] as string, flat[i + 1] as PresenceStatus]);
    }
    return changes;
  }

  write(entries: LocalEntry[]) {
    return this.writeRaw(entries.map(([userId, state]) => [userId, state ?? '']));
  }

  async read(userIds: string[]) {
    if (userIds.length === 0) return new Map<string, PresenceStatus>();
    const statuses = (await this.client.eval(READ, {
      keys: [this.nodesKey],
      arguments: [this.nodePrefix, String(this.timeoutMs()), ...userIds],
    })) as PresenceStatus[];
    return new Map(userIds.map((id, i) => [id, statuses[i] ?? 'offline']));
  }

  async tick(current: () => LocalEntry[]) {
    const changes: StatusChange[] = [];
    if ((await this.heartbeat(0)) === 1) {
      // Retired while stalled: write our view again (the retiring node announced these users gone).
      changes.push(...(await this.write(current())));
    }
    const orphans = (await this.client.eval(SWEEP, {
      keys: [this.nodesKey],
      arguments: [this.nodePrefix, String(this.timeoutMs())],
    })) as string[];
    changes.push(...(await this.writeRaw([...new Set(orphans)].map((u) => [u, '-']))));
    return changes;
  }

  async stop(graceMs: number) {
    // Backdate the heartbeat: the others retire this node once the grace has passed. A Redis that
    // does not answer within a second must not hold the shutdown up (the node then times out).
    const graceful = (async () => {
      await this.heartbeat(Math.min(0, graceMs - this.timeoutMs()));
      await this.client.quit();
    })();
    graceful.catch(() => {}); // a late failure after the timeout is not news
    const timeout = new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error('redis did not answer')), 1000).unref();
    });
    try {
      await Promise.race([graceful, timeout]);
    } catch {
      this.client.destroy();
    }
  }
}

export async function createPresenceStore(ctx: AppContext, timeoutMs: () => number): Promise<PresenceStore> {
  const url = ctx.config.REDIS_URL;
  if (!url) return new MemoryPresenceStore();
  const { createClient } = await import('redis');
  const client = createClient({ url });
  // Without a listener a dropped Redis connection would crash the process; the client reconnects.
  client.on('error', (err: Error) => ctx.log.error({ err }, 'presence redis connection error'));
  return new RedisPresenceStore(client as unknown as RedisLike, ctx.config.REDIS_STREAM, timeoutMs);
}
