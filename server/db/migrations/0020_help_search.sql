CREATE TABLE "help_article_vote_marks" (
	"mark" text PRIMARY KEY NOT NULL,
	"day" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "help_article_votes" (
	"translation_id" integer PRIMARY KEY NOT NULL,
	"yes" integer DEFAULT 0 NOT NULL,
	"no" integer DEFAULT 0 NOT NULL,
	"last_voted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "help_search_misses" (
	"lang" text NOT NULL,
	"query" text NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"last_searched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "help_search_misses_lang_query_pk" PRIMARY KEY("lang","query")
);
--> statement-breakpoint
ALTER TABLE "content_translations" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector(CASE "lang" WHEN 'en' THEN 'english'::regconfig WHEN 'es' THEN 'spanish'::regconfig WHEN 'fr' THEN 'french'::regconfig WHEN 'nl' THEN 'dutch'::regconfig WHEN 'ru' THEN 'russian'::regconfig END, "title"), 'A') || setweight(to_tsvector(CASE "lang" WHEN 'en' THEN 'english'::regconfig WHEN 'es' THEN 'spanish'::regconfig WHEN 'fr' THEN 'french'::regconfig WHEN 'nl' THEN 'dutch'::regconfig WHEN 'ru' THEN 'russian'::regconfig END, "summary"), 'B') || setweight(to_tsvector(CASE "lang" WHEN 'en' THEN 'english'::regconfig WHEN 'es' THEN 'spanish'::regconfig WHEN 'fr' THEN 'french'::regconfig WHEN 'nl' THEN 'dutch'::regconfig WHEN 'ru' THEN 'russian'::regconfig END, regexp_replace("body_html", '<(?:[^>"'']|"[^"]*"|''[^'']*'')*>', ' ', 'g')), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "help_article_votes" ADD CONSTRAINT "help_article_votes_translation_id_content_translations_id_fk" FOREIGN KEY ("translation_id") REFERENCES "public"."content_translations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "help_article_vote_marks_day_idx" ON "help_article_vote_marks" USING btree ("day");--> statement-breakpoint
CREATE INDEX "help_search_misses_top_idx" ON "help_search_misses" USING btree ("count","last_searched_at");--> statement-breakpoint
CREATE INDEX "content_translations_search_idx" ON "content_translations" USING gin ("search_vector");