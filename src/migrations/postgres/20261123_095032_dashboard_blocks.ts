import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TYPE "public"."enum_pages_blocks_map_view_height" AS ENUM('small', 'medium', 'large');
  CREATE TYPE "public"."enum_pages_blocks_kpi_card_statistic" AS ENUM('count', 'average', 'min', 'max', 'sum');
  CREATE TYPE "public"."enum_pages_blocks_alerts_panel_minimum_level" AS ENUM('info', 'warning', 'critical');
  CREATE TYPE "public"."enum__pages_v_blocks_map_view_height" AS ENUM('small', 'medium', 'large');
  CREATE TYPE "public"."enum__pages_v_blocks_kpi_card_statistic" AS ENUM('count', 'average', 'min', 'max', 'sum');
  CREATE TYPE "public"."enum__pages_v_blocks_alerts_panel_minimum_level" AS ENUM('info', 'warning', 'critical');
  CREATE TABLE "pages_blocks_map_view" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"_path" text NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"title" varchar,
  	"city" varchar,
  	"latitude" numeric,
  	"longitude" numeric,
  	"zoom" numeric,
  	"height" "enum_pages_blocks_map_view_height" DEFAULT 'medium',
  	"legend" boolean DEFAULT true,
  	"show_table" boolean DEFAULT false,
  	"block_name" varchar
  );
  
  CREATE TABLE "pages_blocks_kpi_card" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"_path" text NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"label" varchar,
  	"layer_id" integer,
  	"statistic" "enum_pages_blocks_kpi_card_statistic" DEFAULT 'average',
  	"attribute" varchar,
  	"unit" varchar,
  	"city" varchar,
  	"block_name" varchar
  );
  
  CREATE TABLE "pages_blocks_entity_table" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"_path" text NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"title" varchar,
  	"layer_id" integer,
  	"page_size" numeric DEFAULT 20,
  	"city" varchar,
  	"block_name" varchar
  );
  
  CREATE TABLE "pages_blocks_alerts_panel" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"_path" text NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"title" varchar DEFAULT 'Alerts now',
  	"minimum_level" "enum_pages_blocks_alerts_panel_minimum_level" DEFAULT 'warning',
  	"city" varchar,
  	"block_name" varchar
  );
  
  CREATE TABLE "pages_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" integer NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  
  CREATE TABLE "_pages_v_blocks_map_view" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"_path" text NOT NULL,
  	"id" serial PRIMARY KEY NOT NULL,
  	"title" varchar,
  	"city" varchar,
  	"latitude" numeric,
  	"longitude" numeric,
  	"zoom" numeric,
  	"height" "enum__pages_v_blocks_map_view_height" DEFAULT 'medium',
  	"legend" boolean DEFAULT true,
  	"show_table" boolean DEFAULT false,
  	"_uuid" varchar,
  	"block_name" varchar
  );
  
  CREATE TABLE "_pages_v_blocks_kpi_card" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"_path" text NOT NULL,
  	"id" serial PRIMARY KEY NOT NULL,
  	"label" varchar,
  	"layer_id" integer,
  	"statistic" "enum__pages_v_blocks_kpi_card_statistic" DEFAULT 'average',
  	"attribute" varchar,
  	"unit" varchar,
  	"city" varchar,
  	"_uuid" varchar,
  	"block_name" varchar
  );
  
  CREATE TABLE "_pages_v_blocks_entity_table" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"_path" text NOT NULL,
  	"id" serial PRIMARY KEY NOT NULL,
  	"title" varchar,
  	"layer_id" integer,
  	"page_size" numeric DEFAULT 20,
  	"city" varchar,
  	"_uuid" varchar,
  	"block_name" varchar
  );
  
  CREATE TABLE "_pages_v_blocks_alerts_panel" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"_path" text NOT NULL,
  	"id" serial PRIMARY KEY NOT NULL,
  	"title" varchar DEFAULT 'Alerts now',
  	"minimum_level" "enum__pages_v_blocks_alerts_panel_minimum_level" DEFAULT 'warning',
  	"city" varchar,
  	"_uuid" varchar,
  	"block_name" varchar
  );
  
  CREATE TABLE "_pages_v_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" integer NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  
  ALTER TABLE "pages_rels" ADD COLUMN "map_layers_id" integer;
  ALTER TABLE "_pages_v_rels" ADD COLUMN "map_layers_id" integer;
  ALTER TABLE "pages_blocks_map_view" ADD CONSTRAINT "pages_blocks_map_view_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "pages_blocks_kpi_card" ADD CONSTRAINT "pages_blocks_kpi_card_layer_id_map_layers_id_fk" FOREIGN KEY ("layer_id") REFERENCES "public"."map_layers"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "pages_blocks_kpi_card" ADD CONSTRAINT "pages_blocks_kpi_card_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "pages_blocks_entity_table" ADD CONSTRAINT "pages_blocks_entity_table_layer_id_map_layers_id_fk" FOREIGN KEY ("layer_id") REFERENCES "public"."map_layers"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "pages_blocks_entity_table" ADD CONSTRAINT "pages_blocks_entity_table_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "pages_blocks_alerts_panel" ADD CONSTRAINT "pages_blocks_alerts_panel_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "pages_texts" ADD CONSTRAINT "pages_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_map_view" ADD CONSTRAINT "_pages_v_blocks_map_view_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_kpi_card" ADD CONSTRAINT "_pages_v_blocks_kpi_card_layer_id_map_layers_id_fk" FOREIGN KEY ("layer_id") REFERENCES "public"."map_layers"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_kpi_card" ADD CONSTRAINT "_pages_v_blocks_kpi_card_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_entity_table" ADD CONSTRAINT "_pages_v_blocks_entity_table_layer_id_map_layers_id_fk" FOREIGN KEY ("layer_id") REFERENCES "public"."map_layers"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_entity_table" ADD CONSTRAINT "_pages_v_blocks_entity_table_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_alerts_panel" ADD CONSTRAINT "_pages_v_blocks_alerts_panel_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_texts" ADD CONSTRAINT "_pages_v_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_pages_v"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "pages_blocks_map_view_order_idx" ON "pages_blocks_map_view" USING btree ("_order");
  CREATE INDEX "pages_blocks_map_view_parent_id_idx" ON "pages_blocks_map_view" USING btree ("_parent_id");
  CREATE INDEX "pages_blocks_map_view_path_idx" ON "pages_blocks_map_view" USING btree ("_path");
  CREATE INDEX "pages_blocks_kpi_card_order_idx" ON "pages_blocks_kpi_card" USING btree ("_order");
  CREATE INDEX "pages_blocks_kpi_card_parent_id_idx" ON "pages_blocks_kpi_card" USING btree ("_parent_id");
  CREATE INDEX "pages_blocks_kpi_card_path_idx" ON "pages_blocks_kpi_card" USING btree ("_path");
  CREATE INDEX "pages_blocks_kpi_card_layer_idx" ON "pages_blocks_kpi_card" USING btree ("layer_id");
  CREATE INDEX "pages_blocks_entity_table_order_idx" ON "pages_blocks_entity_table" USING btree ("_order");
  CREATE INDEX "pages_blocks_entity_table_parent_id_idx" ON "pages_blocks_entity_table" USING btree ("_parent_id");
  CREATE INDEX "pages_blocks_entity_table_path_idx" ON "pages_blocks_entity_table" USING btree ("_path");
  CREATE INDEX "pages_blocks_entity_table_layer_idx" ON "pages_blocks_entity_table" USING btree ("layer_id");
  CREATE INDEX "pages_blocks_alerts_panel_order_idx" ON "pages_blocks_alerts_panel" USING btree ("_order");
  CREATE INDEX "pages_blocks_alerts_panel_parent_id_idx" ON "pages_blocks_alerts_panel" USING btree ("_parent_id");
  CREATE INDEX "pages_blocks_alerts_panel_path_idx" ON "pages_blocks_alerts_panel" USING btree ("_path");
  CREATE INDEX "pages_texts_order_parent" ON "pages_texts" USING btree ("order","parent_id");
  CREATE INDEX "_pages_v_blocks_map_view_order_idx" ON "_pages_v_blocks_map_view" USING btree ("_order");
  CREATE INDEX "_pages_v_blocks_map_view_parent_id_idx" ON "_pages_v_blocks_map_view" USING btree ("_parent_id");
  CREATE INDEX "_pages_v_blocks_map_view_path_idx" ON "_pages_v_blocks_map_view" USING btree ("_path");
  CREATE INDEX "_pages_v_blocks_kpi_card_order_idx" ON "_pages_v_blocks_kpi_card" USING btree ("_order");
  CREATE INDEX "_pages_v_blocks_kpi_card_parent_id_idx" ON "_pages_v_blocks_kpi_card" USING btree ("_parent_id");
  CREATE INDEX "_pages_v_blocks_kpi_card_path_idx" ON "_pages_v_blocks_kpi_card" USING btree ("_path");
  CREATE INDEX "_pages_v_blocks_kpi_card_layer_idx" ON "_pages_v_blocks_kpi_card" USING btree ("layer_id");
  CREATE INDEX "_pages_v_blocks_entity_table_order_idx" ON "_pages_v_blocks_entity_table" USING btree ("_order");
  CREATE INDEX "_pages_v_blocks_entity_table_parent_id_idx" ON "_pages_v_blocks_entity_table" USING btree ("_parent_id");
  CREATE INDEX "_pages_v_blocks_entity_table_path_idx" ON "_pages_v_blocks_entity_table" USING btree ("_path");
  CREATE INDEX "_pages_v_blocks_entity_table_layer_idx" ON "_pages_v_blocks_entity_table" USING btree ("layer_id");
  CREATE INDEX "_pages_v_blocks_alerts_panel_order_idx" ON "_pages_v_blocks_alerts_panel" USING btree ("_order");
  CREATE INDEX "_pages_v_blocks_alerts_panel_parent_id_idx" ON "_pages_v_blocks_alerts_panel" USING btree ("_parent_id");
  CREATE INDEX "_pages_v_blocks_alerts_panel_path_idx" ON "_pages_v_blocks_alerts_panel" USING btree ("_path");
  CREATE INDEX "_pages_v_texts_order_parent" ON "_pages_v_texts" USING btree ("order","parent_id");
  ALTER TABLE "pages_rels" ADD CONSTRAINT "pages_rels_map_layers_fk" FOREIGN KEY ("map_layers_id") REFERENCES "public"."map_layers"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_rels" ADD CONSTRAINT "_pages_v_rels_map_layers_fk" FOREIGN KEY ("map_layers_id") REFERENCES "public"."map_layers"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "pages_rels_map_layers_id_idx" ON "pages_rels" USING btree ("map_layers_id");
  CREATE INDEX "_pages_v_rels_map_layers_id_idx" ON "_pages_v_rels" USING btree ("map_layers_id");`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "pages_blocks_map_view" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "pages_blocks_kpi_card" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "pages_blocks_entity_table" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "pages_blocks_alerts_panel" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "pages_texts" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_map_view" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_kpi_card" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_entity_table" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_alerts_panel" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_texts" DISABLE ROW LEVEL SECURITY;
  DROP TABLE "pages_blocks_map_view" CASCADE;
  DROP TABLE "pages_blocks_kpi_card" CASCADE;
  DROP TABLE "pages_blocks_entity_table" CASCADE;
  DROP TABLE "pages_blocks_alerts_panel" CASCADE;
  DROP TABLE "pages_texts" CASCADE;
  DROP TABLE "_pages_v_blocks_map_view" CASCADE;
  DROP TABLE "_pages_v_blocks_kpi_card" CASCADE;
  DROP TABLE "_pages_v_blocks_entity_table" CASCADE;
  DROP TABLE "_pages_v_blocks_alerts_panel" CASCADE;
  DROP TABLE "_pages_v_texts" CASCADE;
  ALTER TABLE "pages_rels" DROP CONSTRAINT "pages_rels_map_layers_fk";
  
  ALTER TABLE "_pages_v_rels" DROP CONSTRAINT "_pages_v_rels_map_layers_fk";
  
  DROP INDEX "pages_rels_map_layers_id_idx";
  DROP INDEX "_pages_v_rels_map_layers_id_idx";
  ALTER TABLE "pages_rels" DROP COLUMN "map_layers_id";
  ALTER TABLE "_pages_v_rels" DROP COLUMN "map_layers_id";
  DROP TYPE "public"."enum_pages_blocks_map_view_height";
  DROP TYPE "public"."enum_pages_blocks_kpi_card_statistic";
  DROP TYPE "public"."enum_pages_blocks_alerts_panel_minimum_level";
  DROP TYPE "public"."enum__pages_v_blocks_map_view_height";
  DROP TYPE "public"."enum__pages_v_blocks_kpi_card_statistic";
  DROP TYPE "public"."enum__pages_v_blocks_alerts_panel_minimum_level";`)
}
