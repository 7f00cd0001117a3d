-- The search indexes keep no pending list (db/schema.ts says why). ALTER INDEX changes the option in
-- place instead of rebuilding an index that may be large; the words already queued are merged now.
ALTER INDEX "channel_messages_search_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "direct_messages_search_idx" SET (fastupdate = off);--> statement-breakpoint
SELECT gin_clean_pending_list('channel_messages_search_idx');--> statement-breakpoint
SELECT gin_clean_pending_list('direct_messages_search_idx');
