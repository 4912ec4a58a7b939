import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TABLE "pages_blocks_weather_now" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"_path" text NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"title" varchar DEFAULT 'Weather now',
  	"city" varchar,
  	"block_name" varchar
  );
  
  CREATE TABLE "_pages_v_blocks_weather_now" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"_path" text NOT NULL,
  	"id" serial PRIMARY KEY NOT NULL,
  	"title" varchar DEFAULT 'Weather now',
  	"city" varchar,
  	"_uuid" varchar,
  	"block_name" varchar
  );
  
  ALTER TABLE "site_settings" ALTER COLUMN "map_style_kind" SET DATA TYPE text;
  ALTER TABLE "site_settings" ALTER COLUMN "map_style_kind" SET DEFAULT 'auto'::text;
  DROP TYPE "public"."enum_site_settings_map_style_kind";
  CREATE TYPE "public"."enum_site_settings_map_style_kind" AS ENUM('auto', 'url', 'pmtiles', 'offline');
  ALTER TABLE "site_settings" ALTER COLUMN "map_style_kind" SET DEFAULT 'auto'::"public"."enum_site_settings_map_style_kind";
  ALTER TABLE "site_settings" ALTER COLUMN "map_style_kind" SET DATA TYPE "public"."enum_site_settings_map_style_kind" USING "map_style_kind"::"public"."enum_site_settings_map_style_kind";
  ALTER TABLE "site_settings_cities" ADD COLUMN "basemap" varchar;
  ALTER TABLE "pages_blocks_weather_now" ADD CONSTRAINT "pages_blocks_weather_now_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_weather_now" ADD CONSTRAINT "_pages_v_blocks_weather_now_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "pages_blocks_weather_now_order_idx" ON "pages_blocks_weather_now" USING btree ("_order");
  CREATE INDEX "pages_blocks_weather_now_parent_id_idx" ON "pages_blocks_weather_now" USING btree ("_parent_id");
  CREATE INDEX "pages_blocks_weather_now_path_idx" ON "pages_blocks_weather_now" USING btree ("_path");
  CREATE INDEX "_pages_v_blocks_weather_now_order_idx" ON "_pages_v_blocks_weather_now" USING btree ("_order");
  CREATE INDEX "_pages_v_blocks_weather_now_parent_id_idx" ON "_pages_v_blocks_weather_now" USING btree ("_parent_id");
  CREATE INDEX "_pages_v_blocks_weather_now_path_idx" ON "_pages_v_blocks_weather_now" USING btree ("_path");`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  // Hand-written data step (keep when regenerating): the basemap kinds this migration added do not
  // exist before it; those sites go back to the bundled offline style.
  await db.execute(sql`UPDATE "site_settings" SET "map_style_kind" = 'offline' WHERE "map_style_kind" IN ('auto', 'pmtiles')`)
  await db.execute(sql`
   ALTER TABLE "pages_blocks_weather_now" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_weather_now" DISABLE ROW LEVEL SECURITY;
  DROP TABLE "pages_blocks_weather_now" CASCADE;
  DROP TABLE "_pages_v_blocks_weather_now" CASCADE;
  ALTER TABLE "site_settings" ALTER COLUMN "map_style_kind" SET DATA TYPE text;
  ALTER TABLE "site_settings" ALTER COLUMN "map_style_kind" SET DEFAULT 'offline'::text;
  DROP TYPE "public"."enum_site_settings_map_style_kind";
  CREATE TYPE "public"."enum_site_settings_map_style_kind" AS ENUM('offline', 'url');
  ALTER TABLE "site_settings" ALTER COLUMN "map_style_kind" SET DEFAULT 'offline'::"public"."enum_site_settings_map_style_kind";
  ALTER TABLE "site_settings" ALTER COLUMN "map_style_kind" SET DATA TYPE "public"."enum_site_settings_map_style_kind" USING "map_style_kind"::"public"."enum_site_settings_map_style_kind";
  ALTER TABLE "site_settings_cities" DROP COLUMN "basemap";`)
}
