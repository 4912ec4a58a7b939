import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TYPE "public"."enum_pages_blocks_chart_window" AS ENUM('hour', 'day', 'week', 'month');
  CREATE TYPE "public"."enum_pages_blocks_chart_aggregation" AS ENUM('avg', 'min', 'max', 'raw');
  CREATE TYPE "public"."enum__pages_v_blocks_chart_window" AS ENUM('hour', 'day', 'week', 'month');
  CREATE TYPE "public"."enum__pages_v_blocks_chart_aggregation" AS ENUM('avg', 'min', 'max', 'raw');
  CREATE TABLE "pages_blocks_chart" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"_path" text NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"title" varchar,
  	"layer_id" integer,
  	"window" "enum_pages_blocks_chart_window" DEFAULT 'day',
  	"aggregation" "enum_pages_blocks_chart_aggregation" DEFAULT 'avg',
  	"entity" varchar,
  	"city" varchar,
  	"block_name" varchar
  );
  
  CREATE TABLE "_pages_v_blocks_chart" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"_path" text NOT NULL,
  	"id" serial PRIMARY KEY NOT NULL,
  	"title" varchar,
  	"layer_id" integer,
  	"window" "enum__pages_v_blocks_chart_window" DEFAULT 'day',
  	"aggregation" "enum__pages_v_blocks_chart_aggregation" DEFAULT 'avg',
  	"entity" varchar,
  	"city" varchar,
  	"_uuid" varchar,
  	"block_name" varchar
  );
  
  ALTER TABLE "pages_blocks_chart" ADD CONSTRAINT "pages_blocks_chart_layer_id_map_layers_id_fk" FOREIGN KEY ("layer_id") REFERENCES "public"."map_layers"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "pages_blocks_chart" ADD CONSTRAINT "pages_blocks_chart_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_chart" ADD CONSTRAINT "_pages_v_blocks_chart_layer_id_map_layers_id_fk" FOREIGN KEY ("layer_id") REFERENCES "public"."map_layers"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_chart" ADD CONSTRAINT "_pages_v_blocks_chart_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "pages_blocks_chart_order_idx" ON "pages_blocks_chart" USING btree ("_order");
  CREATE INDEX "pages_blocks_chart_parent_id_idx" ON "pages_blocks_chart" USING btree ("_parent_id");
  CREATE INDEX "pages_blocks_chart_path_idx" ON "pages_blocks_chart" USING btree ("_path");
  CREATE INDEX "pages_blocks_chart_layer_idx" ON "pages_blocks_chart" USING btree ("layer_id");
  CREATE INDEX "_pages_v_blocks_chart_order_idx" ON "_pages_v_blocks_chart" USING btree ("_order");
  CREATE INDEX "_pages_v_blocks_chart_parent_id_idx" ON "_pages_v_blocks_chart" USING btree ("_parent_id");
  CREATE INDEX "_pages_v_blocks_chart_path_idx" ON "_pages_v_blocks_chart" USING btree ("_path");
  CREATE INDEX "_pages_v_blocks_chart_layer_idx" ON "_pages_v_blocks_chart" USING btree ("layer_id");`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   DROP TABLE "pages_blocks_chart" CASCADE;
  DROP TABLE "_pages_v_blocks_chart" CASCADE;
  DROP TYPE "public"."enum_pages_blocks_chart_window";
  DROP TYPE "public"."enum_pages_blocks_chart_aggregation";
  DROP TYPE "public"."enum__pages_v_blocks_chart_window";
  DROP TYPE "public"."enum__pages_v_blocks_chart_aggregation";`)
}
