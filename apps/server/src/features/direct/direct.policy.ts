import { CHAT_MESSAGES } from '@cohort/shared/chat';
import { forbidden } from '../../http/errors.ts';

/** `/api/messages/:email` names the reader, and only the session user may read their messages. */
export function authorizeReader(caller: { email: string }, email: string): void {
  if (caller.email.toLowerCase() !== email.toLowerCase()) throw forbidden(CHAT_MESSAGES.notYourMessages);
}
