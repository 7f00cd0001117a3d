import { lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireAuth } from '../features/accounts/require-auth.tsx';
import HomePage from '../features/home/home-page.tsx';
import { Layout } from './layout.tsx';

// Only the landing page ships in the initial bundle; every other screen loads when first visited.
const LoginPage = lazy(() => import('../features/accounts/login-page.tsx'));
const SignupPage = lazy(() => import('../features/accounts/signup-page.tsx'));
const PricingPage = lazy(() => import('../features/pricing/pricing-page.tsx'));
const ContactPage = lazy(() => import('../features/contact/contact-page.tsx'));
const MeshPage = lazy(() => import('../features/calls/mesh-page.tsx'));
const VideoPage = lazy(() => import('../features/calls/video-page.tsx'));
const VideoMeetingPage = lazy(() => import('../features/calls/video-meeting-page.tsx'));
const CanvasPage = lazy(() => import('../features/channels/canvas-page.tsx'));
const TaskboardPage = lazy(() => import('../features/tasks/taskboard-page.tsx'));
const TaskPage = lazy(() => import('../features/tasks/task-page.tsx'));
const CreateWorkspacePage = lazy(() => import('../features/workspaces/create-workspace-page.tsx'));
const DashboardPage = lazy(() => import('../features/workspaces/dashboard-page.tsx'));
const WorkspacePage = lazy(() => import('../features/workspaces/workspace-page.tsx'));
const CreateChannelPage = lazy(() => import('../features/workspaces/create-channel-page.tsx'));
const WorkspaceSettingsPage = lazy(() => import('../features/workspaces/workspace-settings-page.tsx'));
const ChatPage = lazy(() => import('../features/direct/chat-page.tsx'));
const ProfilePage = lazy(() => import('../features/profile/profile-page.tsx'));
const ProjectsPage = lazy(() => import('../features/projects/projects-page.tsx'));
const NotFoundPage = lazy(() => import('./not-found-page.tsx'));

/** Every client route of the spec's route table (SPEC §2), plus shared task links and a 404. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/mesh', element: <MeshPage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/signup', element: <SignupPage /> },
      { path: '/canvas', element: <CanvasPage /> },
      { path: '/pricing', element: <PricingPage /> },
      {
        path: '/task',
        element: (
          <RequireAuth>
            <TaskboardPage />
          </RequireAuth>
        ),
      },
      { path: '/video', element: <VideoPage /> },
      { path: '/videocall', element: <VideoMeetingPage /> },
      {
        path: '/workspace/create',
        element: (
          <RequireAuth>
            <CreateWorkspacePage />
          </RequireAuth>
        ),
      },
      {
        path: '/dashboard',
        element: (
          <RequireAuth>
            <DashboardPage />
          </RequireAuth>
        ),
      },
      {
        path: '/workspace/:workspaceName',
        element: (
          <RequireAuth>
            <WorkspacePage />
          </RequireAuth>
        ),
      },
      {
        path: '/workspace/:workspaceName/create-channel',
        element: (
          <RequireAuth>
            <CreateChannelPage />
          </RequireAuth>
        ),
      },
      // The channel view is the workspace page with that channel selected in its sidebar.
      {
        path: '/workspace/:workspaceName/channel/:channelId',
        element: (
          <RequireAuth>
            <WorkspacePage />
          </RequireAuth>
        ),
      },
      // Not in the spec's table: member and role management for the workspace's admins.
      {
        path: '/workspace/:workspaceName/settings',
        element: (
          <RequireAuth>
            <WorkspaceSettingsPage />
          </RequireAuth>
        ),
      },
      // The spec names this segment workspaceId; it shares the position of :workspaceName above.
      { path: '/workspace/:workspaceId/projects', element: <ProjectsPage /> },
      // One screen for both: /livechat needs a current user and a selected user, which the chat page
      // restores from `chatState` or asks for in its first step (SPEC §2).
      {
        path: '/chat',
        element: (
          <RequireAuth>
            <ChatPage />
          </RequireAuth>
        ),
      },
      {
        path: '/livechat',
        element: (
          <RequireAuth>
            <ChatPage />
          </RequireAuth>
        ),
      },
      {
        path: '/profile',
        element: (
          <RequireAuth>
            <ProfilePage />
          </RequireAuth>
        ),
      },
      { path: '/about', element: <ContactPage /> },
      { path: '/contact', element: <ContactPage /> },
      {
        path: '/tasks/:taskId',
        element: (
          <RequireAuth>
            <TaskPage />
          </RequireAuth>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
