/** A channel's Video Meeting: `/videocall?room=<channelId>&workspace=<workspaceName>` (docs/calls.md). */
export const meetingUrl = (workspaceName: string, channelId: string) =>
  `/videocall?${new URLSearchParams({ room: channelId, workspace: workspaceName })}`;
