import type { StoredFile } from '@cohort/shared/files';
import type { files } from '../../db/schema.ts';

export type FileRow = typeof files.$inferSelect;

/** The only shape a stored file leaves the server in (upload answer and message attachments). */
export function presentFile(row: FileRow): StoredFile {
  return {
    _id: row.id,
    name: row.name,
    size: row.size,
    type: row.type,
    url: `/api/files/${row.id}`,
    thumbnailUrl: row.thumbnailKey ? `/api/files/${row.id}/thumbnail` : null,
    width: row.width,
    height: row.height,
    durationMs: row.durationMs,
  };
}
