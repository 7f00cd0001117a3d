// What switcher.ts defines without zod, so a screen can import it without the schemas (issue 21).

/**
 * Caps of `GET /api/switcher`: what one person can add to another's answer (channels of a shared
 * workspace, members they invite) is bounded, so the answer stays small whatever others do.
 */
export const SWITCHER_MAX_CHANNELS = 500;
export const SWITCHER_MAX_PEOPLE = 500;
export const SWITCHER_MAX_WORKSPACES = 100;
