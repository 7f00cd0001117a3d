import type { StoredFile } from '@cohort/shared/files';
import { Markdown } from '../markdown/markdown.tsx';
import { Attachments } from './attachments.tsx';

/** A message's content as safe Markdown, then its attachments. */
export function MessageBody({
  content,
  attachments = [],
  own = false,
}: {
  content: string;
  attachments?: StoredFile[];
  own?: boolean;
}) {
  return (
    <div>
      {content !== '' && <Markdown source={content} inverted={own} />}
      <Attachments files={attachments} own={own} />
    </div>
  );
}
