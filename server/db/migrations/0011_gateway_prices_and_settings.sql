CREATE TABLE "gateway_prices" (
	"product_id" integer NOT NULL,
	"gateway" "gateway_name" NOT NULL,
	"price_ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateway_prices_gateway_price_ref_pk" PRIMARY KEY("gateway","price_ref")
);
--> statement-breakpoint
CREATE TABLE "gateway_settings" (
	"gateway" "gateway_name" PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"settings" jsonb NOT NULL,
	"secrets_sealed" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "products_gateway_ref_key";--> statement-breakpoint
ALTER TABLE "gateway_prices" ADD CONSTRAINT "gateway_prices_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gateway_prices_product_idx" ON "gateway_prices" USING btree ("product_id","gateway","created_at");--> statement-breakpoint
-- Until now only the sandbox made prices (products.gateway_ref): they are its own.
INSERT INTO "gateway_prices" ("product_id", "gateway", "price_ref") SELECT "id", 'sandbox', "gateway_ref" FROM "products" WHERE "gateway_ref" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "gateway_ref";