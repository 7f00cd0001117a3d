import { z } from 'zod';
import { channelMessage } from './chat.ts';

export * from './pins.constants.ts';

/**
 * Pinned messages of a channel (issue 22). Rules: docs/permissions.md (`pinMessages`); events:
 * docs/realtime.md.
 */

/** A row of a channel's Pins panel, newest pin first. */
export const channelPin = z.object({
  message: channelMessage,
  pinnedAt: z.string(),
  pinnedBy: z.object({ _id: z.string(), name: z.string() }),
});
export type ChannelPin = z.infer<typeof channelPin>;
export const channelPinList = z.array(channelPin);

/** `channelPinsChanged`: refetch the channel's pins (`GET …/pins`); `count` is the new number. */
export const channelPinsChangedEvent = z.object({
  workspaceId: z.string(),
  channelId: z.string(),
  count: z.number().int(),
});
export type ChannelPinsChangedEvent = z.infer<typeof channelPinsChangedEvent>;
