CREATE TABLE "content_categories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "content_categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"parent_id" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_category_translations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "content_category_translations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"category_id" integer NOT NULL,
	"kind" text NOT NULL,
	"lang" text NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"seo_title" text DEFAULT '' NOT NULL,
	"seo_description" text DEFAULT '' NOT NULL,
	"focus_keyphrase" text DEFAULT '' NOT NULL,
	"og_image_id" integer,
	"canonical_url" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "content_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"key" text,
	"category_id" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"cover_image_id" integer,
	"author_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_media" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "content_media_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"storage_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"alt" text NOT NULL,
	"original_name" text DEFAULT '' NOT NULL,
	"uploaded_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_media_uses" (
	"media_id" integer NOT NULL,
	"translation_id" integer NOT NULL,
	CONSTRAINT "content_media_uses_media_id_translation_id_pk" PRIMARY KEY("media_id","translation_id")
);
--> statement-breakpoint
CREATE TABLE "content_redirects" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "content_redirects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"space" text NOT NULL,
	"lang" text NOT NULL,
	"from_slug" text NOT NULL,
	"translation_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_revisions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "content_revisions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"translation_id" integer NOT NULL,
	"author_id" integer,
	"changed" text[] DEFAULT '{}'::text[] NOT NULL,
	"snapshot" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"authors_can_publish" boolean DEFAULT false NOT NULL,
	"updated_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_tags" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "content_tags_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"lang" text NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_translation_tags" (
	"translation_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "content_translation_tags_translation_id_tag_id_pk" PRIMARY KEY("translation_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "content_translations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "content_translations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"item_id" integer NOT NULL,
	"space" text NOT NULL,
	"lang" text NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"body_md" text DEFAULT '' NOT NULL,
	"body_html" text DEFAULT '' NOT NULL,
	"toc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"words" integer DEFAULT 0 NOT NULL,
	"reading_minutes" integer DEFAULT 0 NOT NULL,
	"questions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"seo_title" text DEFAULT '' NOT NULL,
	"seo_description" text DEFAULT '' NOT NULL,
	"focus_keyphrase" text DEFAULT '' NOT NULL,
	"og_image_id" integer,
	"canonical_url" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"publish_at" timestamp with time zone,
	"unpublish_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"author_id" integer,
	"updated_by_id" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "main_page_faqs" (
	"page" text PRIMARY KEY NOT NULL,
	"faq_item_id" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "main_page_seo" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "main_page_seo_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"page" text NOT NULL,
	"lang" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"focus_keyphrase" text DEFAULT '' NOT NULL,
	"og_image_id" integer,
	"canonical_url" text DEFAULT '' NOT NULL,
	"updated_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "content_categories" ADD CONSTRAINT "content_categories_parent_id_content_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."content_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_category_translations" ADD CONSTRAINT "content_category_translations_category_id_content_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."content_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_category_translations" ADD CONSTRAINT "content_category_translations_og_image_id_content_media_id_fk" FOREIGN KEY ("og_image_id") REFERENCES "public"."content_media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_category_id_content_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."content_categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_cover_image_id_content_media_id_fk" FOREIGN KEY ("cover_image_id") REFERENCES "public"."content_media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_media" ADD CONSTRAINT "content_media_uploaded_by_id_users_id_fk" FOREIGN KEY ("uploaded_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_media_uses" ADD CONSTRAINT "content_media_uses_media_id_content_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."content_media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_media_uses" ADD CONSTRAINT "content_media_uses_translation_id_content_translations_id_fk" FOREIGN KEY ("translation_id") REFERENCES "public"."content_translations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_redirects" ADD CONSTRAINT "content_redirects_translation_id_content_translations_id_fk" FOREIGN KEY ("translation_id") REFERENCES "public"."content_translations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_translation_id_content_translations_id_fk" FOREIGN KEY ("translation_id") REFERENCES "public"."content_translations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_settings" ADD CONSTRAINT "content_settings_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_translation_tags" ADD CONSTRAINT "content_translation_tags_translation_id_content_translations_id_fk" FOREIGN KEY ("translation_id") REFERENCES "public"."content_translations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_translation_tags" ADD CONSTRAINT "content_translation_tags_tag_id_content_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."content_tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_translations" ADD CONSTRAINT "content_translations_item_id_content_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."content_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_translations" ADD CONSTRAINT "content_translations_og_image_id_content_media_id_fk" FOREIGN KEY ("og_image_id") REFERENCES "public"."content_media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_translations" ADD CONSTRAINT "content_translations_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_translations" ADD CONSTRAINT "content_translations_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "main_page_faqs" ADD CONSTRAINT "main_page_faqs_faq_item_id_content_items_id_fk" FOREIGN KEY ("faq_item_id") REFERENCES "public"."content_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "main_page_seo" ADD CONSTRAINT "main_page_seo_og_image_id_content_media_id_fk" FOREIGN KEY ("og_image_id") REFERENCES "public"."content_media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "main_page_seo" ADD CONSTRAINT "main_page_seo_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_categories_kind_parent_idx" ON "content_categories" USING btree ("kind","parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "content_category_translations_category_lang_key" ON "content_category_translations" USING btree ("category_id","lang");--> statement-breakpoint
CREATE UNIQUE INDEX "content_category_translations_slug_key" ON "content_category_translations" USING btree ("kind","lang","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "content_items_kind_key_key" ON "content_items" USING btree ("kind","key");--> statement-breakpoint
CREATE INDEX "content_items_kind_idx" ON "content_items" USING btree ("kind","updated_at");--> statement-breakpoint
CREATE INDEX "content_items_category_idx" ON "content_items" USING btree ("category_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "content_media_storage_key_key" ON "content_media" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "content_media_uses_translation_idx" ON "content_media_uses" USING btree ("translation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "content_redirects_from_key" ON "content_redirects" USING btree ("space","lang","from_slug");--> statement-breakpoint
CREATE INDEX "content_redirects_translation_idx" ON "content_redirects" USING btree ("translation_id");--> statement-breakpoint
CREATE INDEX "content_revisions_translation_idx" ON "content_revisions" USING btree ("translation_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "content_tags_lang_slug_key" ON "content_tags" USING btree ("lang","slug");--> statement-breakpoint
CREATE INDEX "content_translation_tags_tag_idx" ON "content_translation_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "content_translations_item_lang_key" ON "content_translations" USING btree ("item_id","lang");--> statement-breakpoint
CREATE UNIQUE INDEX "content_translations_slug_key" ON "content_translations" USING btree ("space","lang","slug");--> statement-breakpoint
CREATE INDEX "content_translations_due_idx" ON "content_translations" USING btree ("state","publish_at") WHERE "content_translations"."state" = 'scheduled';--> statement-breakpoint
CREATE INDEX "content_translations_unpublish_idx" ON "content_translations" USING btree ("unpublish_at") WHERE "content_translations"."unpublish_at" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "main_page_seo_page_lang_key" ON "main_page_seo" USING btree ("page","lang");--> statement-breakpoint
INSERT INTO "content_settings" ("id") VALUES (1);
