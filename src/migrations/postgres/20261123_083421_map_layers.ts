import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TYPE "public"."enum_map_layers_source_filters_operator" AS ENUM('==', '!=', '>', '>=', '<', '<=');
  CREATE TYPE "public"."enum_map_layers_alert_rules_operator" AS ENUM('>', '>=', '<', '<=', '==', '!=', 'between', 'outside', 'contains', 'missing', 'stale');
  CREATE TYPE "public"."enum_map_layers_alert_rules_level" AS ENUM('info', 'warning', 'critical');
  CREATE TYPE "public"."enum_map_layers_style_icon" AS ENUM('circle', 'square', 'triangle', 'star');
  CREATE TYPE "public"."enum_map_layers_style_colour_by" AS ENUM('style', 'alert');
  CREATE TABLE "map_layers_source_filters" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"attribute" varchar NOT NULL,
  	"operator" "enum_map_layers_source_filters_operator" DEFAULT '==' NOT NULL,
  	"value" varchar NOT NULL
  );
  
  CREATE TABLE "map_layers_alert_rules" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"attribute" varchar NOT NULL,
  	"operator" "enum_map_layers_alert_rules_operator" NOT NULL,
  	"value" varchar,
  	"value_to" numeric,
  	"level" "enum_map_layers_alert_rules_level" DEFAULT 'warning' NOT NULL,
  	"message" varchar NOT NULL
  );
  
  CREATE TABLE "map_layers" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"name" varchar NOT NULL,
  	"description" varchar,
  	"public" boolean DEFAULT true,
  	"entity_type" varchar NOT NULL,
  	"source_tenant" varchar,
  	"source_context_url" varchar,
  	"style_colour" varchar DEFAULT '#0b5cad',
  	"style_radius" numeric DEFAULT 6,
  	"style_icon" "enum_map_layers_style_icon" DEFAULT 'circle',
  	"style_colour_by" "enum_map_layers_style_colour_by" DEFAULT 'style',
  	"style_cluster" boolean DEFAULT true,
  	"refresh_seconds" numeric DEFAULT 60 NOT NULL,
  	"max_features" numeric DEFAULT 50000 NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "map_layers_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" integer NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  
  ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "map_layers_id" integer;
  ALTER TABLE "map_layers_source_filters" ADD CONSTRAINT "map_layers_source_filters_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."map_layers"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "map_layers_alert_rules" ADD CONSTRAINT "map_layers_alert_rules_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."map_layers"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "map_layers_texts" ADD CONSTRAINT "map_layers_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."map_layers"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "map_layers_source_filters_order_idx" ON "map_layers_source_filters" USING btree ("_order");
  CREATE INDEX "map_layers_source_filters_parent_id_idx" ON "map_layers_source_filters" USING btree ("_parent_id");
  CREATE INDEX "map_layers_alert_rules_order_idx" ON "map_layers_alert_rules" USING btree ("_order");
  CREATE INDEX "map_layers_alert_rules_parent_id_idx" ON "map_layers_alert_rules" USING btree ("_parent_id");
  CREATE INDEX "map_layers_updated_at_idx" ON "map_layers" USING btree ("updated_at");
  CREATE INDEX "map_layers_created_at_idx" ON "map_layers" USING btree ("created_at");
  CREATE INDEX "map_layers_texts_order_parent" ON "map_layers_texts" USING btree ("order","parent_id");
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_map_layers_fk" FOREIGN KEY ("map_layers_id") REFERENCES "public"."map_layers"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "payload_locked_documents_rels_map_layers_id_idx" ON "payload_locked_documents_rels" USING btree ("map_layers_id");`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "map_layers_source_filters" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "map_layers_alert_rules" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "map_layers" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "map_layers_texts" DISABLE ROW LEVEL SECURITY;
  DROP TABLE "map_layers_source_filters" CASCADE;
  DROP TABLE "map_layers_alert_rules" CASCADE;
  DROP TABLE "map_layers" CASCADE;
  DROP TABLE "map_layers_texts" CASCADE;
  ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT "payload_locked_documents_rels_map_layers_fk";
  
  DROP INDEX "payload_locked_documents_rels_map_layers_id_idx";
  ALTER TABLE "payload_locked_documents_rels" DROP COLUMN "map_layers_id";
  DROP TYPE "public"."enum_map_layers_source_filters_operator";
  DROP TYPE "public"."enum_map_layers_alert_rules_operator";
  DROP TYPE "public"."enum_map_layers_alert_rules_level";
  DROP TYPE "public"."enum_map_layers_style_icon";
  DROP TYPE "public"."enum_map_layers_style_colour_by";`)
}
