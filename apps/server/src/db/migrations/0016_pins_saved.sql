CREATE TABLE "channel_pins" (
	"message_id" uuid PRIMARY KEY NOT NULL,
	"channel_id" uuid NOT NULL,
	"pinned_by" uuid NOT NULL,
	"pinned_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"channel_message_id" uuid,
	"direct_message_id" uuid,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_messages_one_message" CHECK (("saved_messages"."channel_message_id" is null) <> ("saved_messages"."direct_message_id" is null))
);
--> statement-breakpoint
ALTER TABLE "channel_pins" ADD CONSTRAINT "channel_pins_message_id_channel_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."channel_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_pins" ADD CONSTRAINT "channel_pins_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_pins" ADD CONSTRAINT "channel_pins_pinned_by_users_id_fk" FOREIGN KEY ("pinned_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_messages" ADD CONSTRAINT "saved_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_messages" ADD CONSTRAINT "saved_messages_channel_message_id_channel_messages_id_fk" FOREIGN KEY ("channel_message_id") REFERENCES "public"."channel_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_messages" ADD CONSTRAINT "saved_messages_direct_message_id_direct_messages_id_fk" FOREIGN KEY ("direct_message_id") REFERENCES "public"."direct_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_pins_channel_idx" ON "channel_pins" USING btree ("channel_id","pinned_at");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_messages_user_channel_key" ON "saved_messages" USING btree ("user_id","channel_message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_messages_user_direct_key" ON "saved_messages" USING btree ("user_id","direct_message_id");--> statement-breakpoint
CREATE INDEX "saved_messages_user_saved_idx" ON "saved_messages" USING btree ("user_id","saved_at");--> statement-breakpoint
CREATE INDEX "saved_messages_channel_message_idx" ON "saved_messages" USING btree ("channel_message_id") WHERE "saved_messages"."channel_message_id" is not null;--> statement-breakpoint
CREATE INDEX "saved_messages_direct_message_idx" ON "saved_messages" USING btree ("direct_message_id") WHERE "saved_messages"."direct_message_id" is not null;