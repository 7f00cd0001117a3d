/** A channel's Video Meeting: `/videocall?room=<channelId>&workspace=<workspaceName>` (docs/calls.md). */
export const meetingUrl = (workspaceName: string, channelId: string) =>
  `/videocall?${new URLSearchParams({ room: channelId, workspace: workspaceName })}`;

/** The same meeting, joined at once (the channel's "Meeting in progress" Join). */
export const joinMeetingUrl = (workspaceName: string, channelId: string) =>
  `/videocall?${new URLSearchParams({ room: channelId, workspace: workspaceName, join: '1' })}`;

/** `/video?call=<email>`: the video page preselects this person and starts the call. */
export const callUrl = (email: string) => `/video?${new URLSearchParams({ call: email })}`;
