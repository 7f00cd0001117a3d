import { displayName } from '@cohort/shared/names';
import type { Channel, WorkspaceDetail } from '@cohort/shared/workspaces';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BellOff,
  Compass,
  FolderGit2,
  Hash,
  Lock,
  LogOut,
  MessagesSquare,
  PanelLeftOpen,
  Settings,
  Star,
} from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useMatch, useNavigate, useParams } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { drawerPanelClasses, useDrawer, useWide } from '../../components/ui/drawer.tsx';
import { InBackground } from '../../components/ui/in-background.tsx';
import { ApiError } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useMe } from '../accounts/accounts.public.ts';
import {
  BrowseChannels,
  ChannelPane,
  refreshChannels,
  type SidebarUnread,
  useUnreadCounts,
} from '../channels/channels.public.ts';
import { MentionBadge } from '../notifications/notifications.public.ts';
import { chatWithUrl, PersonButton } from '../people/people.public.ts';
import { PresenceDot, usePresence, useWorkspacePresence } from '../presence/presence.public.ts';
import { unreadLabel, useDirectUnread } from '../reads/reads.public.ts';
import { CreateChannelForm } from './create-channel-form.tsx';
import { LeaveWorkspaceButton } from './leave-workspace-button.tsx';
import { ROLE_LABELS } from './role-select.tsx';
import { sidebarGroups } from './sidebar-groups.ts';
import { isTwoFactorRequired, TwoFactorRequired } from './two-factor-required.tsx';
import { WorkspaceSwitcher } from './workspace-switcher.tsx';
import {
  canCreateChannel,
  canManageMembers,
  channelPath,
  membersQuery,
  workspacePath,
  workspaceQuery,
} from './workspaces.queries.ts';

/**
 * /workspace/{workspaceName} and /workspace/{workspaceName}/channel/{channelId} (SPEC §2 "Workspace
 * page"): both routes render this page, so moving between channels keeps the sidebar in place.
 */
export default function WorkspacePage() {
  const { workspaceName = '', channelId } = useParams();
  const browsing = useMatch('/workspace/:workspaceName/browse') !== null;
  const workspace = useQuery(workspaceQuery(workspaceName));
  const channel = channelId ? workspace.data?.chat.channels.find((c) => c._id === channelId) : undefined;
  useDocumentTitle(
    workspace.data
      ? channel
        ? `#${channel.name} · ${workspace.data.name}`
        : workspace.data.name
      : 'Workspace',
  );

  const loading = (
    <p role="status" className="px-4 py-24 text-center text-slate-600">
      Loading workspace details...
    </p>
  );
  if (workspace.isPending) return loading;
  if (workspace.isError) {
    if (isTwoFactorRequired(workspace.error)) return <TwoFactorRequired />;
    // 404 is also what someone outside the workspace gets (its existence is not told), e.g. from a
    // link to one of its messages: say "not found", not that loading failed.
    const missing = workspace.error instanceof ApiError && workspace.error.status === 404;
    return (
      <div className="mx-auto max-w-xl px-4 py-24 text-center">
        {missing && <p className="text-sm font-semibold text-indigo-700">404</p>}
        <h1 role="alert" className="text-2xl font-bold tracking-tight text-slate-900">
          {missing ? 'Workspace not found' : 'Failed to load workspace'}
        </h1>
        <p className="mt-3 text-slate-600">
          It may not exist, or you may not be a member of it. Ask one of its admins to add you.
        </p>
        <Link to="/dashboard" className={buttonClasses('secondary', 'md', 'mt-8')}>
          Your Workspaces
        </Link>
      </div>
    );
  }
  return (
    <InBackground fallback={loading}>
      <WorkspaceView workspace={workspace.data} channelId={channelId} channel={channel} browsing={browsing} />
    </InBackground>
  );
}

function WorkspaceView({
  workspace,
  channelId,
  channel,
  browsing,
}: {
  workspace: WorkspaceDetail;
  channelId: string | undefined;
  channel: Channel | undefined;
  browsing: boolean;
}) {
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  // Narrow screens: the channels and people are a drawer, and the conversation takes the screen.
  const drawer = useDrawer<HTMLElement>();
  const wide = useWide();

  return (
    <div className="mx-auto flex max-w-7xl flex-col max-md:h-below-navbar md:px-6 md:py-6">
      <header className="flex shrink-0 items-center gap-2 border-b border-slate-200 bg-white px-3 py-2 md:flex-wrap md:justify-between md:gap-4 md:rounded-t-2xl md:border md:px-5 md:py-4 dark:border-slate-800 dark:bg-slate-900">
        <button
          {...drawer.buttonProps}
          aria-label="Channels and people"
          className="rounded-md p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 md:hidden dark:text-slate-200 dark:hover:bg-slate-800"
        >
          <PanelLeftOpen aria-hidden="true" className="size-5" />
        </button>
        <div className="min-w-0 flex-1 md:flex-none">
          <p className="hidden text-xs font-semibold tracking-wide text-indigo-700 uppercase md:block dark:text-indigo-300">
            Workspace
          </p>
          <h1
            className="truncate text-lg font-bold tracking-tight text-slate-900 md:text-2xl dark:text-slate-100"
            title={workspace.name}
          >
            {workspace.name}
          </h1>
        </div>
        {/* Below md the actions show as icons (their names stay for screen readers). */}
        <div className="flex shrink-0 items-center gap-1 md:flex-wrap md:gap-2">
          <span className="hidden rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-700 sm:inline dark:bg-slate-800 dark:text-slate-200">
            <span className="sr-only">Your role: </span>
            {ROLE_LABELS[workspace.role]}
          </span>
          <Link
            to={`/workspace/${encodeURIComponent(workspace._id)}/projects`}
            className={buttonClasses('secondary', 'sm')}
          >
            <FolderGit2 aria-hidden="true" className="size-4" />
            <span className="max-md:sr-only">Explore Projects</span>
          </Link>
          {canManageMembers(workspace.role) && (
            <Link
              to={`${workspacePath(workspace.name)}/settings`}
              className={buttonClasses('secondary', 'sm')}
            >
              <Settings aria-hidden="true" className="size-4" />
              <span className="max-md:sr-only">Settings</span>
            </Link>
          )}
          <LeaveWorkspaceButton workspace={workspace} />
          <Link to="/dashboard" className={buttonClasses('ghost', 'sm')}>
            <LogOut aria-hidden="true" className="size-4" />
            <span className="max-md:sr-only">Exit</span>
          </Link>
        </div>
      </header>

      <div className="grid min-h-0 flex-1 overflow-hidden bg-white md:min-h-[34rem] md:grid-cols-[4rem_17rem_1fr] md:rounded-b-2xl md:border md:border-t-0 md:border-slate-200 dark:border-slate-800 dark:bg-slate-900">
        {drawer.overlay}
        <div className="hidden border-r border-slate-200 bg-slate-100 py-3 md:block dark:border-slate-800 dark:bg-slate-950">
          {/* Wide screens only (a phone shows the switcher in the drawer): not rendered unseen. */}
          {wide && <WorkspaceSwitcher currentId={workspace._id} />}
        </div>
        <ChannelSidebar
          drawer={drawer}
          workspace={workspace}
          selectedId={channelId}
          openChannelId={channel?._id}
          browsing={browsing}
          onCreate={() => setCreating(true)}
        />
        <div className="min-h-0 min-w-0 md:border-l md:border-slate-200 dark:md:border-slate-800">
          {browsing ? (
            <BrowseChannels workspaceName={workspace.name} />
          ) : channelId ? (
            channel ? (
              <ChannelPane
                key={channel._id}
                workspaceName={workspace.name}
                channel={channel}
                role={workspace.role}
              />
            ) : (
              <div className="px-6 py-20 text-center">
                <h2 className="text-xl font-semibold text-slate-900">Channel not found</h2>
                <p className="mt-2 text-slate-600">
                  It may have been deleted, or it is a private channel you are not part of.
                </p>
              </div>
            )
          ) : (
            <div className="flex h-full flex-col items-center justify-center px-6 py-20 text-center">
              <MessagesSquare aria-hidden="true" className="size-12 text-indigo-300" />
              <h2 className="mt-4 text-2xl font-semibold break-words text-slate-900">{workspace.name}</h2>
              <p className="mt-2 max-w-prose break-words text-slate-600">{workspace.description}</p>
              <p className="mt-6 font-medium text-slate-800">Select a channel to start chatting</p>
            </div>
          )}
        </div>
      </div>

      {creating && (
        <Dialog
          title="Create Channel"
          description={`A new channel in ${workspace.name}.`}
          onClose={() => setCreating(false)}
        >
          <CreateChannelForm
            workspace={workspace}
            onCancel={() => setCreating(false)}
            onCreated={(created) => {
              setCreating(false);
              navigate(channelPath(workspace.name, created._id));
            }}
          />
        </Dialog>
      )}
    </div>
  );
}

type SidebarProps = Parameters<typeof SidebarContent>[0];

/**
 * The workspace's sidebar. On a phone it is a drawer (the menu button in the workspace's header), so
 * the chat has the screen; the drawer scrolls (a workspace may list a hundred people). Its content
 * (and the reads behind it: unread counts, people, presence) renders only while it is on screen.
 */
function ChannelSidebar(props: SidebarProps) {
  const { drawer, workspace } = props;
  const queryClient = useQueryClient();
  // A phone's drawer was not listening while closed: opening it brings the channel list up to date.
  useEffect(() => {
    if (drawer.open) void refreshChannels(queryClient, workspace.name);
  }, [drawer.open, queryClient, workspace.name]);
  return (
    <nav
      {...drawer.panelProps}
      aria-labelledby="channels-heading"
      className={cn(
        drawer.open
          ? drawerPanelClasses
          : 'hidden overflow-y-auto bg-slate-50/70 p-3 md:flex md:flex-col dark:bg-slate-900',
      )}
    >
      {drawer.shown && <SidebarContent {...props} />}
    </nav>
  );
}

function SidebarContent({
  drawer,
  workspace,
  selectedId,
  openChannelId,
  browsing,
  onCreate,
}: {
  drawer: ReturnType<typeof useDrawer<HTMLElement>>;
  workspace: WorkspaceDetail;
  selectedId: string | undefined;
  /** The channel shown beside the sidebar (it has no unread count while it is read). */
  openChannelId: string | undefined;
  browsing: boolean;
  onCreate: () => void;
}) {
  // Here, not in the page: a new count re-renders the sidebar, not the conversation (issue 19).
  const me = useMe();
  const unread = useUnreadCounts(
    workspace.name,
    workspace.chat.channels.map((c) => c._id),
    openChannelId,
    me.data?._id,
  );
  const groups = sidebarGroups(workspace.chat.channels, selectedId);
  return (
    <>
      {drawer.open && (
        <div className="mb-3 border-b border-slate-200 pb-3">
          <WorkspaceSwitcher currentId={workspace._id} horizontal />
        </div>
      )}
      {groups.starred.length > 0 && (
        <>
          <h2
            id="starred-heading"
            className="flex items-center gap-1 px-2 pt-1 pb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase"
          >
            <Star aria-hidden="true" className="size-3" />
            Starred
          </h2>
          <ul aria-labelledby="starred-heading" className="mb-3 space-y-1">
            {groups.starred.map((c) => (
              <ChannelLink
                key={c._id}
                workspaceName={workspace.name}
                channel={c}
                selectedId={selectedId}
                unread={unread}
              />
            ))}
          </ul>
        </>
      )}
      <h2
        id="channels-heading"
        className="px-2 pt-1 pb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase"
      >
        Channels
      </h2>
      {groups.channels.length === 0 && groups.starred.length === 0 ? (
        <p className="px-2 py-3 text-sm text-slate-600">No channels yet.</p>
      ) : (
        <ul aria-labelledby="channels-heading" className="space-y-1">
          {groups.channels.map((c) => (
            <ChannelLink
              key={c._id}
              workspaceName={workspace.name}
              channel={c}
              selectedId={selectedId}
              unread={unread}
            />
          ))}
        </ul>
      )}
      <Link
        to={`${workspacePath(workspace.name)}/browse`}
        aria-current={browsing ? 'page' : undefined}
        className={cn(
          'mt-2 flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600',
          browsing ? 'bg-indigo-600 text-white' : 'text-indigo-700 hover:bg-white hover:shadow-sm',
        )}
      >
        <Compass aria-hidden="true" className="size-4" />
        Browse channels
      </Link>
      <DirectMessagesList workspaceName={workspace.name} />
      <PeopleList workspaceName={workspace.name} />
      <div className="mt-auto pt-4">
        {canCreateChannel(workspace.role) ? (
          <button type="button" onClick={onCreate} className={buttonClasses('secondary', 'sm', 'w-full')}>
            + Create Channel
          </button>
        ) : (
          <p className="px-2 text-xs text-slate-600">
            Viewers can read and chat. Ask an editor or admin to create a channel.
          </p>
        )}
      </div>
    </>
  );
}

/** The workspace's members with their presence (the sidebar's "People"). */
function PeopleList({ workspaceName }: { workspaceName: string }) {
  const members = useQuery(membersQuery(workspaceName));
  useWorkspacePresence(workspaceName);
  const me = useMe();
  const people = (members.data ?? []).filter((m) => m._id !== null && m.status === 'active');
  if (people.length === 0) return null;
  return (
    <section aria-labelledby="people-heading" className="mt-4">
      <h2
        id="people-heading"
        className="px-2 pt-1 pb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase"
      >
        People
      </h2>
      <ul className="space-y-0.5">
        {people.map((m) => {
          const name = displayName(m);
          return (
            <li key={m._id} className="flex items-center gap-2 px-2.5 py-1 text-sm text-slate-800">
              <PersonDot userId={m._id as string} />
              <PersonButton email={m.email} name={name} className="min-w-0 truncate">
                {name}
              </PersonButton>
              {m._id === me.data?._id && <span className="shrink-0 text-xs text-slate-600">(you)</span>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function PersonDot({ userId }: { userId: string }) {
  return <PresenceDot status={usePresence(userId)} />;
}

/** One channel of the sidebar: its name, unread and mention counts, and whether it is muted. */
function ChannelLink({
  workspaceName,
  channel: c,
  selectedId,
  unread,
}: {
  workspaceName: string;
  channel: Channel;
  selectedId: string | undefined;
  unread: SidebarUnread;
}) {
  const selected = c._id === selectedId;
  const count = unread.counts[c._id];
  const muted = unread.muted[c._id] === true;
  return (
    <li>
      <Link
        to={channelPath(workspaceName, c._id)}
        aria-current={selected ? 'page' : undefined}
        className={cn(
          'block rounded-lg px-2.5 py-2 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600',
          selected ? 'bg-indigo-600 text-white shadow-sm' : 'text-slate-800 hover:bg-white hover:shadow-sm',
          // Muted: still there, but quiet.
          muted && !selected && 'opacity-60',
        )}
      >
        <span className="flex items-center gap-1.5 text-sm font-semibold">
          {c.private ? (
            <>
              <Lock aria-hidden="true" className="size-3.5 shrink-0 opacity-80" />
              <span className="sr-only">Private channel: </span>
            </>
          ) : (
            <Hash aria-hidden="true" className="size-3.5 shrink-0 opacity-70" />
          )}
          <span className="min-w-0 flex-1 truncate">{c.name}</span>
          <MentionBadge workspace={workspaceName} channelId={c._id} />
          {muted && (
            <>
              <BellOff aria-hidden="true" className="ml-auto size-3.5 shrink-0 opacity-70" />
              <span className="sr-only"> (muted)</span>
            </>
          )}
          {count !== undefined && (
            <span className="ml-auto shrink-0 rounded-full bg-indigo-600 px-1.5 py-0.5 text-[11px] leading-none font-semibold text-white tabular-nums">
              {unreadLabel(count)}
              <span className="sr-only"> unread</span>
            </span>
          )}
        </span>
        <span
          title={c.topic || c.description}
          className={cn('mt-0.5 block truncate text-xs', selected ? 'text-indigo-100' : 'text-slate-600')}
        >
          {c.joined ? c.description : 'Not joined: previewing'}
        </span>
      </Link>
    </li>
  );
}

/** The sidebar's direct messages: conversations with this workspace's members, with unread counts. */
function DirectMessagesList({ workspaceName }: { workspaceName: string }) {
  const conversations = useDirectUnread();
  const members = useQuery(membersQuery(workspaceName));
  const here = new Set((members.data ?? []).map((m) => m.email.toLowerCase()));
  const shown = (conversations.data ?? []).filter((c) => here.has(c.email.toLowerCase()));
  if (shown.length === 0) return null;
  return (
    <section aria-labelledby="dm-heading" className="mt-4">
      <h2
        id="dm-heading"
        className="px-2 pt-1 pb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase"
      >
        Direct messages
      </h2>
      <ul className="space-y-0.5">
        {shown.map((c) => (
          <li key={c.email}>
            <Link
              to={chatWithUrl(c.email)}
              className="flex items-center gap-2 rounded-lg px-2.5 py-1 text-sm text-slate-800 hover:bg-white hover:shadow-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <span className="min-w-0 flex-1 truncate">{c.name || c.email}</span>
              {c.unread > 0 && (
                <span className="shrink-0 rounded-full bg-indigo-600 px-1.5 py-0.5 text-[11px] leading-none font-semibold text-white tabular-nums">
                  {unreadLabel(c.unread)}
                  <span className="sr-only"> unread</span>
                </span>
              )}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
