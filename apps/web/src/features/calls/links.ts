/** A channel's Video Meeting: `/videocall?room=<channelId>&workspace=<workspaceName>` (docs/calls.md). */
export const meetingUrl = (workspaceName: string, channelId: string) =>
  `/videocall?${new URLSearchParams({ room: channelId, workspace: workspaceName })}`;

/** A 1:1 call to this person, started as soon as /video is connected (video-page.tsx). */
export const callUrl = (email: string) => `/video?${new URLSearchParams({ call: email })}`;
