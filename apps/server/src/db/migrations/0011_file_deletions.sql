CREATE TABLE "file_deletions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Every deleted files row, however it was deleted (cascades included), queues its stored bytes for removal.
CREATE FUNCTION "queue_file_deletion"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "file_deletions" ("storage_key") VALUES (OLD."storage_key");
  IF OLD."thumbnail_key" IS NOT NULL THEN
    INSERT INTO "file_deletions" ("storage_key") VALUES (OLD."thumbnail_key");
  END IF;
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "files_queue_deletion" AFTER DELETE ON "files" FOR EACH ROW EXECUTE FUNCTION "queue_file_deletion"();
--> statement-breakpoint
-- The sweeper looks for uploads no message carries, oldest first.
CREATE INDEX "files_unattached_created_idx" ON "files" ("created_at") WHERE "channel_message_id" IS NULL AND "direct_message_id" IS NULL;
