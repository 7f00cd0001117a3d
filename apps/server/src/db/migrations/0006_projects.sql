CREATE TABLE "project_etags" (
	"project_id" uuid NOT NULL,
	"resource" text NOT NULL,
	"etag" text NOT NULL,
	CONSTRAINT "project_etags_project_id_resource_pk" PRIMARY KEY("project_id","resource")
);
--> statement-breakpoint
CREATE TABLE "project_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"number" integer NOT NULL,
	"title" text NOT NULL,
	"url" text NOT NULL,
	"state" text NOT NULL,
	"author" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"assignee_id" uuid,
	CONSTRAINT "project_items_kind_check" CHECK ("project_items"."kind" in ('pullrequest', 'issue')),
	CONSTRAINT "project_items_state_check" CHECK ("project_items"."state" in ('open', 'merged', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"owner" text NOT NULL,
	"repo" text NOT NULL,
	"name" text NOT NULL,
	"full_name" text NOT NULL,
	"stars" integer DEFAULT 0 NOT NULL,
	"forks" integer DEFAULT 0 NOT NULL,
	"added_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_synced_at" timestamp with time zone,
	"last_sync_attempt_at" timestamp with time zone,
	"last_sync_error" text,
	"sync_lease_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "project_etags" ADD CONSTRAINT "project_etags_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_items" ADD CONSTRAINT "project_items_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_items" ADD CONSTRAINT "project_items_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "project_items_project_kind_number_key" ON "project_items" USING btree ("project_id","kind","number");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_workspace_repo_key" ON "projects" USING btree ("workspace_id",lower("owner"),lower("repo"));--> statement-breakpoint
CREATE INDEX "projects_repo_idx" ON "projects" USING btree (lower("owner"),lower("repo"));