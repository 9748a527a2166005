CREATE TYPE "public"."vpn_device_block" AS ENUM('no_access', 'blocked', 'traffic_limit', 'device_limit', 'no_server');--> statement-breakpoint
CREATE TYPE "public"."vpn_server_status" AS ENUM('new', 'online', 'offline', 'maintenance', 'draining');--> statement-breakpoint
CREATE TABLE "vpn_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"fingerprint" text DEFAULT '' NOT NULL,
	"access_active" boolean DEFAULT false NOT NULL,
	"access_until" timestamp with time zone,
	"blocked" boolean DEFAULT false NOT NULL,
	"device_limit" integer NOT NULL,
	"limit_bytes" bigint,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"period_rx" bigint DEFAULT 0 NOT NULL,
	"period_tx" bigint DEFAULT 0 NOT NULL,
	"limit_reached_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_cities" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vpn_cities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"country_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_devices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vpn_devices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"public_key" text NOT NULL,
	"location" text NOT NULL,
	"server_id" integer,
	"host" integer,
	"previous_server_id" integer,
	"blocked_by" "vpn_device_block",
	"rx_bytes" bigint DEFAULT 0 NOT NULL,
	"tx_bytes" bigint DEFAULT 0 NOT NULL,
	"latest_handshake_at" timestamp with time zone,
	"config_changed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_servers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vpn_servers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"country_id" integer NOT NULL,
	"city_id" integer NOT NULL,
	"endpoint_host" text NOT NULL,
	"endpoint_port" integer NOT NULL,
	"listen_port" integer,
	"public_key" text,
	"ipv4_pool" text NOT NULL,
	"ipv6_pool" text NOT NULL,
	"dns" text[] NOT NULL,
	"capacity" integer NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" "vpn_server_status" DEFAULT 'new' NOT NULL,
	"cpu" real DEFAULT 0 NOT NULL,
	"active_peers" integer DEFAULT 0 NOT NULL,
	"load" smallint DEFAULT 0 NOT NULL,
	"last_seen_at" timestamp with time zone,
	"enrolled_at" timestamp with time zone,
	"agent_version" text,
	"token_hash" text NOT NULL,
	"token_rotated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"peers_version" bigint DEFAULT 1 NOT NULL,
	"report_stream" text,
	"report_seq" bigint DEFAULT 0 NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_usage_periods" (
	"user_id" integer NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"rx" bigint NOT NULL,
	"tx" bigint NOT NULL,
	CONSTRAINT "vpn_usage_periods_user_id_period_start_pk" PRIMARY KEY("user_id","period_start")
);
--> statement-breakpoint
ALTER TABLE "countries" ADD COLUMN "vpn_visible" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "countries" ADD COLUMN "vpn_sort" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "device_limit" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "vpn_accounts" ADD CONSTRAINT "vpn_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_cities" ADD CONSTRAINT "vpn_cities_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_devices" ADD CONSTRAINT "vpn_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_devices" ADD CONSTRAINT "vpn_devices_server_id_vpn_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."vpn_servers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_servers" ADD CONSTRAINT "vpn_servers_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_servers" ADD CONSTRAINT "vpn_servers_city_id_vpn_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."vpn_cities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_usage_periods" ADD CONSTRAINT "vpn_usage_periods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "vpn_cities_name_key" ON "vpn_cities" USING btree ("country_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "vpn_devices_public_key_key" ON "vpn_devices" USING btree ("public_key");--> statement-breakpoint
CREATE UNIQUE INDEX "vpn_devices_host_key" ON "vpn_devices" USING btree ("server_id","host");--> statement-breakpoint
CREATE INDEX "vpn_devices_user_idx" ON "vpn_devices" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "vpn_devices_peers_idx" ON "vpn_devices" USING btree ("server_id") WHERE "vpn_devices"."blocked_by" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "vpn_servers_name_key" ON "vpn_servers" USING btree (lower("name")) WHERE "vpn_servers"."retired_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "vpn_servers_token_key" ON "vpn_servers" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "vpn_servers_public_key_key" ON "vpn_servers" USING btree ("public_key");--> statement-breakpoint
CREATE INDEX "vpn_servers_country_idx" ON "vpn_servers" USING btree ("country_id","status");--> statement-breakpoint
-- Every usage report updates a row per active device and person, and one for the server:
-- room left in each page lets PostgreSQL update them in place (HOT: the changed columns are
-- in no index), without new index entries or as much vacuum work.
ALTER TABLE "vpn_devices" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "vpn_accounts" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "vpn_servers" SET (fillfactor = 80);
