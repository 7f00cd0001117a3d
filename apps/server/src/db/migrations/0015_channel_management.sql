CREATE TABLE "channel_stars" (
	"user_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_stars_user_id_channel_id_pk" PRIMARY KEY("user_id","channel_id")
);
--> statement-breakpoint
ALTER TABLE "channel_messages" ADD COLUMN "kind" text DEFAULT 'text' NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "topic" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "archived_by" uuid;--> statement-breakpoint
ALTER TABLE "channel_stars" ADD CONSTRAINT "channel_stars_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_stars" ADD CONSTRAINT "channel_stars_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_stars_channel_idx" ON "channel_stars" USING btree ("channel_id");--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_archived_by_users_id_fk" FOREIGN KEY ("archived_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Open channels used to be in every member's sidebar without a row here; joining is now explicit
-- (docs/permissions.md, "Joining open channels"), so every current member of a workspace joins each of
-- its open channels: nobody's sidebar loses a channel on upgrade.
INSERT INTO "channel_members" ("channel_id", "user_id", "created_at")
SELECT c."id", wm."user_id", now()
FROM "channels" c JOIN "workspace_members" wm ON wm."workspace_id" = c."workspace_id"
WHERE NOT c."is_private"
ON CONFLICT DO NOTHING;
