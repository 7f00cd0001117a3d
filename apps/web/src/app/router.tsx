import { type ComponentType, isValidElement, lazy, type ReactNode } from 'react';
import { matchRoutes, Outlet, type RouteObject, useRoutes } from 'react-router';
import { Layout } from './layout.tsx';

type Preload = () => Promise<unknown>;

/** A lazily loaded screen (or wrapper) whose chunk can also be fetched ahead of its first render. */
function page<T extends ComponentType | ComponentType<{ children: ReactNode }>>(
  load: () => Promise<{ default: T }>,
) {
  return Object.assign(lazy(load), { preload: load as Preload });
}

// TanStack Query's cache, and the session guard that reads through it, are not in the entry chunk
// (issue 21): they load with the first screen that reads the server, in parallel with its chunk.
const QueryScope = page(() => import('./session.tsx').then((m) => ({ default: m.QueryScope })));
const RequireAuth = page(() => import('./session.tsx').then((m) => ({ default: m.RequireAuth })));

// Every screen loads when first visited; the server preloads the one a URL opens (http/web-shell.ts).
const HomePage = page(() => import('../features/home/home-page.tsx'));
const LoginPage = page(() => import('../features/accounts/login-page.tsx'));
const SignupPage = page(() => import('../features/accounts/signup-page.tsx'));
const ForgotPasswordPage = page(() => import('../features/accounts/forgot-password-page.tsx'));
const ResetPasswordPage = page(() => import('../features/accounts/reset-password-page.tsx'));
const VerifyEmailPage = page(() => import('../features/accounts/verify-email-page.tsx'));
const ConfirmEmailPage = page(() => import('../features/accounts/confirm-email-page.tsx'));
const PricingPage = page(() => import('../features/pricing/pricing-page.tsx'));
const ContactPage = page(() => import('../features/contact/contact-page.tsx'));
const MeshPage = page(() => import('../features/calls/mesh-page.tsx'));
const VideoPage = page(() => import('../features/calls/video-page.tsx'));
const VideoMeetingPage = page(() => import('../features/calls/video-meeting-page.tsx'));
const CanvasPage = page(() => import('../features/channels/canvas-page.tsx'));
const TaskboardPage = page(() => import('../features/tasks/taskboard-page.tsx'));
const TaskPage = page(() => import('../features/tasks/task-page.tsx'));
const CreateWorkspacePage = page(() => import('../features/workspaces/create-workspace-page.tsx'));
const DashboardPage = page(() => import('../features/workspaces/dashboard-page.tsx'));
const WorkspacePage = page(() => import('../features/workspaces/workspace-page.tsx'));
const CreateChannelPage = page(() => import('../features/workspaces/create-channel-page.tsx'));
const WorkspaceSettingsPage = page(() => import('../features/workspaces/workspace-settings-page.tsx'));
const ChatPage = page(() => import('../features/direct/chat-page.tsx'));
const MessagesPage = page(() => import('../features/direct/messages-page.tsx'));
const ProfilePage = page(() => import('../features/profile/profile-page.tsx'));
const InvitationsPage = page(() => import('../features/invitations/invitations-page.tsx'));
const ProjectsPage = page(() => import('../features/projects/projects-page.tsx'));
const SearchPage = page(() => import('../features/search/search-page.tsx'));
const SavedPage = page(() => import('../features/saved/saved-page.tsx'));
const NotFoundPage = page(() => import('./not-found-page.tsx'));

/** Every client route of the spec's route table (SPEC §2), plus shared task links and a 404. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: <HomePage /> },
      // The landing page, pricing and the 404 read nothing from the server: no query cache to wait for.
      { path: '/pricing', element: <PricingPage /> },
      {
        element: (
          <QueryScope>
            <Outlet />
          </QueryScope>
        ),
        children: [
          { path: '/login', element: <LoginPage /> },
          { path: '/signup', element: <SignupPage /> },
          // Not in the spec's table: the pages mailed links open (docs/accounts.md).
          { path: '/forgot-password', element: <ForgotPasswordPage /> },
          { path: '/reset-password', element: <ResetPasswordPage /> },
          { path: '/verify-email', element: <VerifyEmailPage /> },
          { path: '/confirm-email', element: <ConfirmEmailPage /> },
          { path: '/canvas', element: <CanvasPage /> },
          { path: '/about', element: <ContactPage /> },
          { path: '/contact', element: <ContactPage /> },
          // Signed-in screens: one guard for all, so a new screen cannot forget it.
          {
            element: (
              <RequireAuth>
                <Outlet />
              </RequireAuth>
            ),
            children: [
              { path: '/mesh', element: <MeshPage /> },
              { path: '/task', element: <TaskboardPage /> },
              // Not in the spec's table: one board of the taskboard (issue 20); /task opens the last used one.
              { path: '/task/board/:boardId', element: <TaskboardPage /> },
              { path: '/video', element: <VideoPage /> },
              { path: '/videocall', element: <VideoMeetingPage /> },
              { path: '/workspace/create', element: <CreateWorkspacePage /> },
              { path: '/dashboard', element: <DashboardPage /> },
              { path: '/workspace/:workspaceName', element: <WorkspacePage /> },
              { path: '/workspace/:workspaceName/create-channel', element: <CreateChannelPage /> },
              // The channel view is the workspace page with that channel selected in its sidebar.
              { path: '/workspace/:workspaceName/channel/:channelId', element: <WorkspacePage /> },
              // Not in the spec's table: every open channel of the workspace, to join (issue 22).
              { path: '/workspace/:workspaceName/browse', element: <WorkspacePage /> },
              // Not in the spec's table: member and role management for the workspace's admins.
              { path: '/workspace/:workspaceName/settings', element: <WorkspaceSettingsPage /> },
              // The spec names this segment workspaceId; it shares the position of :workspaceName above.
              { path: '/workspace/:workspaceId/projects', element: <ProjectsPage /> },
              // One screen for both: /livechat needs a current user and a selected user, which the chat
              // page restores from `chatState` or asks for in its first step (SPEC §2).
              { path: '/chat', element: <ChatPage /> },
              { path: '/livechat', element: <ChatPage /> },
              // Not in the spec's table: the navbar's Messages (my conversations and a people search).
              { path: '/messages', element: <MessagesPage /> },
              // Not in the spec's table: my pending workspace invitations (the invitation e-mail links here).
              { path: '/invitations', element: <InvitationsPage /> },
              { path: '/profile', element: <ProfilePage /> },
              { path: '/search', element: <SearchPage /> },
              { path: '/saved', element: <SavedPage /> },
              { path: '/tasks/:taskId', element: <TaskPage /> },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * The app's screens. A component router (<BrowserRouter> + useRoutes), not the data router
 * (createBrowserRouter): the app uses no loaders, actions or fetchers, and the data router cost every
 * first visit ~17 KiB of gzip (issue 21). Scroll restoration is ./scroll-restoration.tsx.
 */
export function AppRoutes() {
  return useRoutes(routes);
}

/** The preload of the lazily loaded screen an element renders (directly or inside a wrapper). */
export function preloadOf(node: ReactNode): Preload | undefined {
  if (!isValidElement(node)) return undefined;
  const { preload } = node.type as { preload?: Preload };
  return preload ?? preloadOf((node.props as { children?: ReactNode }).children);
}

/**
 * Starts downloading the screen of `pathname` now. Called once at start-up: otherwise a protected
 * screen's chunk is only requested after the session check answers, one round trip later.
 */
export function preloadRoute(pathname: string) {
  for (const match of matchRoutes(routes, pathname) ?? []) {
    preloadOf(match.route.element)?.().catch(() => {
      // A failed preload is retried by React.lazy when the screen renders, which shows the error.
    });
  }
}
