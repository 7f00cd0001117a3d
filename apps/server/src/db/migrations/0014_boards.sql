CREATE TABLE "task_attachments" (
	"task_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_attachments_task_id_file_id_pk" PRIMARY KEY("task_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "task_boards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid,
	"owner_id" uuid,
	"title" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rev" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "task_boards_one_holder" CHECK (("task_boards"."workspace_id" is null) <> ("task_boards"."owner_id" is null))
);
--> statement-breakpoint
ALTER TABLE "files" DROP CONSTRAINT "files_one_conversation";--> statement-breakpoint
ALTER TABLE "task_notifications" DROP CONSTRAINT "task_notifications_kind_check";--> statement-breakpoint
DROP INDEX "task_lists_owner_title_key";--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "board_id" uuid;--> statement-breakpoint
ALTER TABLE "task_lists" ADD COLUMN "board_id" uuid;--> statement-breakpoint
-- Issue 20: every user who has lists gets their personal board, and their lists move onto it.
INSERT INTO "task_boards" ("owner_id", "title", "created_by")
  SELECT DISTINCT "owner_id", 'Personal board', "owner_id" FROM "task_lists";--> statement-breakpoint
UPDATE "task_lists" SET "board_id" = b."id" FROM "task_boards" b WHERE b."owner_id" = "task_lists"."owner_id";--> statement-breakpoint
ALTER TABLE "task_lists" ALTER COLUMN "board_id" SET NOT NULL;--> statement-breakpoint
-- Every existing workspace gets a team board (new ones get theirs when they are created).
INSERT INTO "task_boards" ("workspace_id", "title", "created_by", "created_at")
  SELECT "id", 'Team board', "created_by", "created_at" FROM "workspaces";--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "source_workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "source_channel_id" uuid;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "source_message_id" uuid;--> statement-breakpoint
ALTER TABLE "task_attachments" ADD CONSTRAINT "task_attachments_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_attachments" ADD CONSTRAINT "task_attachments_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_attachments" ADD CONSTRAINT "task_attachments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_boards" ADD CONSTRAINT "task_boards_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_boards" ADD CONSTRAINT "task_boards_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_boards" ADD CONSTRAINT "task_boards_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_attachments_file_idx" ON "task_attachments" USING btree ("file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "task_boards_personal_key" ON "task_boards" USING btree ("owner_id") WHERE "task_boards"."owner_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "task_boards_workspace_title_key" ON "task_boards" USING btree ("workspace_id",lower("title"));--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_board_id_task_boards_id_fk" FOREIGN KEY ("board_id") REFERENCES "public"."task_boards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_lists" ADD CONSTRAINT "task_lists_board_id_task_boards_id_fk" FOREIGN KEY ("board_id") REFERENCES "public"."task_boards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_board_idx" ON "files" USING btree ("board_id");--> statement-breakpoint
CREATE UNIQUE INDEX "task_lists_board_title_key" ON "task_lists" USING btree ("board_id",lower("title"));--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_one_conversation" CHECK (("files"."channel_id" is not null and "files"."workspace_id" is not null and "files"."dm_user_a" is null and "files"."dm_user_b" is null and "files"."board_id" is null)
        or ("files"."channel_id" is null and "files"."dm_user_a" is not null and "files"."dm_user_b" is not null and "files"."dm_user_a" < "files"."dm_user_b" and "files"."board_id" is null)
        or ("files"."board_id" is not null and "files"."channel_id" is null and "files"."dm_user_a" is null and "files"."dm_user_b" is null));--> statement-breakpoint
ALTER TABLE "task_notifications" ADD CONSTRAINT "task_notifications_kind_check" CHECK ("task_notifications"."kind" in ('assigned', 'comment', 'due', 'mention'));