CREATE TABLE "oauth_providers" (
	"id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"secret_sealed" text NOT NULL,
	"apple_team_id" text,
	"apple_key_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "role" "user_role" DEFAULT 'USER' NOT NULL;--> statement-breakpoint
-- Sessions already open keep working: they were signed in with the role their user has now.
UPDATE "sessions" SET "role" = "users"."role" FROM "users" WHERE "users"."id" = "sessions"."user_id";
