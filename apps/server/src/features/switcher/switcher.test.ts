import type { SwitcherData } from '@cohort/shared/switcher';
import { SWITCHER_MAX_CHANNELS } from '@cohort/shared/switcher';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { client, createChannel, createWorkspace, wsUrl } from '../workspaces/test-fixtures.ts';

let t: TestApp;
let api: ReturnType<typeof client>;
let ada: TestUser;
let bob: TestUser;
let carl: TestUser;
let dana: TestUser;
let ws: { _id: string; name: string };
let second: { _id: string; name: string };
let carlWs: { _id: string; name: string };
const ch: Record<string, { _id: string; name: string }> = {};

const switcher = async (as?: TestUser) => {
  const res = await api.get('/api/switcher', as);
  return { status: res.statusCode, body: res.json() as SwitcherData };
};

beforeAll(async () => {
  t = await createTestApp();
  api = client(t);
  ada = await createUser(t.app, { firstName: 'Ada', lastName: 'Lovelace' });
  bob = await createUser(t.app, { firstName: 'Bob', lastName: 'Builder' });
  carl = await createUser(t.app, { firstName: 'Carl', lastName: 'Outsider' });
  dana = await createUser(t.app, { firstName: 'Dana', lastName: 'Scully' });
  // Ada (admin) and Bob share `ws`; Ada and Dana share `second`; Carl is alone in his own workspace.
  ws = await createWorkspace(t, ada, { members: [{ email: bob.email, role: 'editor' }] });
  second = await createWorkspace(t, ada, { members: [{ email: dana.email, role: 'editor' }] });
  carlWs = await createWorkspace(t, carl);
  ch.general = await createChannel(t, ada, ws.name, { name: 'general' });
  ch.secret = await createChannel(t, ada, ws.name, { name: 'secret', private: true });
  ch.bobsSecret = await createChannel(t, bob, ws.name, { name: 'bobs-secret', private: true });
  ch.old = await createChannel(t, ada, ws.name, { name: 'old-stuff' });
  const archived = await api.post(wsUrl(ws.name, `/channels/${ch.old._id}/archive`), ada, {});
  expect(archived.statusCode).toBe(200);
  ch.design = await createChannel(t, dana, second.name, { name: 'design-reviews' });
  ch.carls = await createChannel(t, carl, carlWs.name, { name: 'carls-private', private: true });
  ch.carlsOpen = await createChannel(t, carl, carlWs.name, { name: 'carls-open' });
});
afterAll(() => t.close());

describe('GET /api/switcher', () => {
  it('needs a session', async () => {
    expect((await switcher()).status).toBe(401);
  });

  it("lists the caller's readable channels of all their workspaces, archived ones marked", async () => {
    const { status, body } = await switcher(ada);
    expect(status).toBe(200);
    const names = body.channels.map((c) => c.name);
    // Unarchived first, by name; the archived one last.
    expect(names).toEqual(['design-reviews', 'general', 'secret', 'old-stuff']);
    expect(body.channels.find((c) => c.name === 'secret')).toEqual({
      _id: ch.secret?._id,
      name: 'secret',
      workspace: { _id: ws._id, name: ws.name },
      private: true,
      archived: false,
    });
    expect(body.channels.find((c) => c.name === 'old-stuff')?.archived).toBe(true);
    expect(body.channels.find((c) => c.name === 'design-reviews')?.workspace).toEqual({
      _id: second._id,
      name: second.name,
    });
  });

  it('never lists a private channel the caller is not in, nor another workspace', async () => {
    const ids = (await switcher(ada)).body.channels.map((c) => c._id);
    expect(ids).not.toContain(ch.bobsSecret?._id);
    expect(ids).not.toContain(ch.carls?._id);
    expect(ids).not.toContain(ch.carlsOpen?._id);
    const bobs = (await switcher(bob)).body;
    expect(bobs.channels.map((c) => c.name)).toEqual(['bobs-secret', 'general', 'old-stuff']);
    expect(bobs.workspaces).toEqual([{ _id: ws._id, name: ws.name }]);
    const carls = (await switcher(carl)).body;
    expect(carls.channels.map((c) => c.name).sort()).toEqual(['carls-open', 'carls-private']);
    expect(carls.people).toEqual([]);
    expect(carls.workspaces).toEqual([{ _id: carlWs._id, name: carlWs.name }]);
  });

  it('lists the people sharing a workspace (never the caller) and the workspaces, by name', async () => {
    const { body } = await switcher(ada);
    expect(body.people).toEqual([
      { _id: bob.id, name: 'Bob Builder', email: bob.email },
      { _id: dana.id, name: 'Dana Scully', email: dana.email },
    ]);
    expect(body.workspaces.map((w) => w._id).sort()).toEqual([ws._id, second._id].sort());
    // Bob shares nothing with Dana.
    expect((await switcher(bob)).body.people.map((p) => p._id)).toEqual([ada.id]);
  });

  it("hides a workspace's channels while it requires two-factor sign-in the caller lacks", async () => {
    await t.ctx.db.execute(
      sql`update workspaces set require_two_factor = true where id = ${second._id}::uuid`,
    );
    try {
      const ids = (await switcher(ada)).body.channels.map((c) => c._id);
      expect(ids).not.toContain(ch.design?._id);
      expect(ids).toContain(ch.general?._id);
    } finally {
      await t.ctx.db.execute(
        sql`update workspaces set require_two_factor = false where id = ${second._id}::uuid`,
      );
    }
  });

  it('forgets a removed member at once', async () => {
    const removed = await api.del(wsUrl(second.name, `/members/${dana.id}`), ada);
    expect(removed.statusCode).toBe(204);
    const danas = (await switcher(dana)).body;
    expect(danas).toEqual({ channels: [], people: [], workspaces: [] });
    expect((await switcher(ada)).body.people.map((p) => p._id)).toEqual([bob.id]);
  });

  it('caps the channels, so others cannot make the answer unbounded', async () => {
    const many = SWITCHER_MAX_CHANNELS + 5;
    await t.ctx.db.execute(sql`insert into channels (workspace_id, name, description)
      select ${carlWs._id}::uuid, 'bulk-' || g, '' from generate_series(1, ${many}) g`);
    const { status, body } = await switcher(carl);
    expect(status).toBe(200);
    expect(body.channels).toHaveLength(SWITCHER_MAX_CHANNELS);
  });
});
