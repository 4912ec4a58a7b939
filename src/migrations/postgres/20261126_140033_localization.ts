import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

// Before a column moves into its `*_locales` table, its values are copied there as the default
// locale's ('es'): existing pages, posts, layers, globals and their versions keep their text.
const DEFAULT_LOCALE = 'es'
const LOCALIZED_COLUMNS: Array<[table: string, columns: string[]]> = [
  ['pages', ['title', 'meta_title', 'meta_description']],
  ['_pages_v', ['version_title', 'version_meta_title', 'version_meta_description']],
  ['posts', ['title', 'content', 'meta_title', 'meta_description']],
  ['_posts_v', ['version_title', 'version_content', 'version_meta_title', 'version_meta_description']],
  ...(['', '_pages_v_'] as const).flatMap((prefix): Array<[string, string[]]> => [
    [`${prefix || 'pages_'}blocks_map_view`, ['title']],
    [`${prefix || 'pages_'}blocks_kpi_card`, ['label']],
    [`${prefix || 'pages_'}blocks_chart`, ['title']],
    [`${prefix || 'pages_'}blocks_entity_table`, ['title']],
    [`${prefix || 'pages_'}blocks_alerts_panel`, ['title']],
    [`${prefix || 'pages_'}blocks_weather_now`, ['title']],
    [`${prefix || 'pages_'}blocks_content_columns`, ['rich_text']],
    [`${prefix || 'pages_'}blocks_cta_links`, ['link_label']],
    [`${prefix || 'pages_'}blocks_cta`, ['rich_text']],
    [`${prefix || 'pages_'}blocks_media_block`, ['caption']],
  ]),
  ['categories', ['title']],
  ['map_layers', ['name', 'description']],
  ['map_layers_alert_rules', ['message']],
  ['search', ['title']],
  ['header_nav_items', ['link_label']],
  ['footer_nav_items', ['link_label']],
  ['footer', ['contact_address', 'copyright']],
  ['site_settings', ['title', 'description', 'metadata_keywords']],
]

const quoted = (name: string) => `"${name}"`

/** INSERT … SELECT of each table's localized columns into its locales table, as the default locale. */
const copyIntoLocales = (): string[] =>
  LOCALIZED_COLUMNS.map(([table, columns]) => {
    const list = columns.map(quoted).join(', ')
    const anyValue = columns.map((column) => `${quoted(column)} IS NOT NULL`).join(' OR ')
    return `INSERT INTO ${quoted(`${table}_locales`)} (${list}, "_locale", "_parent_id") SELECT ${list}, '${DEFAULT_LOCALE}', "id" FROM ${quoted(table)} WHERE ${anyValue};`
  })

/** Down: the default locale's text back into the columns (run after they are added back, before the locales tables go). */
const copyBackFromLocales = (): string[] =>
  LOCALIZED_COLUMNS.map(([table, columns]) => {
    const sets = columns
      .map((column) => `${quoted(column)} = COALESCE((SELECT l.${quoted(column)} FROM ${quoted(`${table}_locales`)} l WHERE l."_parent_id" = ${quoted(table)}."id" AND l."_locale" = '${DEFAULT_LOCALE}'), ${quoted(column)})`)
      .join(', ')
    return `UPDATE ${quoted(table)} SET ${sets};`
  })


export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TYPE "public"."_locales" AS ENUM('es', 'pt', 'en');
  CREATE TYPE "public"."enum__pages_v_published_locale" AS ENUM('es', 'pt', 'en');
  CREATE TYPE "public"."enum__posts_v_published_locale" AS ENUM('es', 'pt', 'en');
  CREATE TYPE "public"."enum_ai_drafts_target_locale" AS ENUM('es', 'pt', 'en');
  CREATE TYPE "public"."enum_site_settings_cities_locale" AS ENUM('es', 'pt', 'en');
  ALTER TYPE "public"."enum_ai_drafts_task" ADD VALUE 'translate';
  CREATE TABLE "pages_blocks_map_view_locales" (
  	"title" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "pages_blocks_kpi_card_locales" (
  	"label" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "pages_blocks_chart_locales" (
  	"title" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "pages_blocks_entity_table_locales" (
  	"title" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "pages_blocks_alerts_panel_locales" (
  	"title" varchar DEFAULT 'Alerts now',
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "pages_blocks_weather_now_locales" (
  	"title" varchar DEFAULT 'Weather now',
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "pages_blocks_content_columns_locales" (
  	"rich_text" jsonb,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "pages_blocks_cta_links_locales" (
  	"link_label" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "pages_blocks_cta_locales" (
  	"rich_text" jsonb,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "pages_blocks_media_block_locales" (
  	"caption" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "pages_locales" (
  	"title" varchar,
  	"meta_title" varchar,
  	"meta_description" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "_pages_v_blocks_map_view_locales" (
  	"title" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "_pages_v_blocks_kpi_card_locales" (
  	"label" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "_pages_v_blocks_chart_locales" (
  	"title" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "_pages_v_blocks_entity_table_locales" (
  	"title" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "_pages_v_blocks_alerts_panel_locales" (
  	"title" varchar DEFAULT 'Alerts now',
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "_pages_v_blocks_weather_now_locales" (
  	"title" varchar DEFAULT 'Weather now',
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "_pages_v_blocks_content_columns_locales" (
  	"rich_text" jsonb,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "_pages_v_blocks_cta_links_locales" (
  	"link_label" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "_pages_v_blocks_cta_locales" (
  	"rich_text" jsonb,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "_pages_v_blocks_media_block_locales" (
  	"caption" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "_pages_v_locales" (
  	"version_title" varchar,
  	"version_meta_title" varchar,
  	"version_meta_description" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "posts_locales" (
  	"title" varchar,
  	"content" jsonb,
  	"meta_title" varchar,
  	"meta_description" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "_posts_v_locales" (
  	"version_title" varchar,
  	"version_content" jsonb,
  	"version_meta_title" varchar,
  	"version_meta_description" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "categories_locales" (
  	"title" varchar NOT NULL,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "map_layers_alert_rules_locales" (
  	"message" varchar NOT NULL,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "map_layers_locales" (
  	"name" varchar NOT NULL,
  	"description" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "search_locales" (
  	"title" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "header_nav_items_locales" (
  	"link_label" varchar NOT NULL,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "footer_nav_items_locales" (
  	"link_label" varchar NOT NULL,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "footer_locales" (
  	"contact_address" varchar,
  	"copyright" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "site_settings_locales" (
  	"title" varchar DEFAULT 'City Dashboard' NOT NULL,
  	"description" varchar,
  	"metadata_keywords" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  ALTER TABLE "_pages_v" ADD COLUMN "snapshot" boolean;
  ALTER TABLE "_pages_v" ADD COLUMN "published_locale" "enum__pages_v_published_locale";
  ALTER TABLE "_posts_v" ADD COLUMN "snapshot" boolean;
  ALTER TABLE "_posts_v" ADD COLUMN "published_locale" "enum__posts_v_published_locale";
  ALTER TABLE "categories_breadcrumbs" ADD COLUMN "_locale" "_locales" DEFAULT 'es' NOT NULL;
  ALTER TABLE "categories_breadcrumbs" ALTER COLUMN "_locale" DROP DEFAULT;
  ALTER TABLE "ai_drafts" ADD COLUMN "target_locale" "enum_ai_drafts_target_locale";
  ALTER TABLE "site_settings_cities" ADD COLUMN "locale" "enum_site_settings_cities_locale" DEFAULT 'es' NOT NULL;
  ALTER TABLE "site_settings_cities" ADD COLUMN "time_zone" varchar DEFAULT 'Europe/Madrid' NOT NULL;
  ALTER TABLE "site_settings" ADD COLUMN "ai_translate" boolean DEFAULT true;
  ALTER TABLE "pages_blocks_map_view_locales" ADD CONSTRAINT "pages_blocks_map_view_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages_blocks_map_view"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "pages_blocks_kpi_card_locales" ADD CONSTRAINT "pages_blocks_kpi_card_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages_blocks_kpi_card"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "pages_blocks_chart_locales" ADD CONSTRAINT "pages_blocks_chart_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages_blocks_chart"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "pages_blocks_entity_table_locales" ADD CONSTRAINT "pages_blocks_entity_table_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages_blocks_entity_table"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "pages_blocks_alerts_panel_locales" ADD CONSTRAINT "pages_blocks_alerts_panel_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages_blocks_alerts_panel"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "pages_blocks_weather_now_locales" ADD CONSTRAINT "pages_blocks_weather_now_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages_blocks_weather_now"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "pages_blocks_content_columns_locales" ADD CONSTRAINT "pages_blocks_content_columns_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages_blocks_content_columns"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "pages_blocks_cta_links_locales" ADD CONSTRAINT "pages_blocks_cta_links_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages_blocks_cta_links"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "pages_blocks_cta_locales" ADD CONSTRAINT "pages_blocks_cta_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages_blocks_cta"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "pages_blocks_media_block_locales" ADD CONSTRAINT "pages_blocks_media_block_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages_blocks_media_block"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "pages_locales" ADD CONSTRAINT "pages_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_map_view_locales" ADD CONSTRAINT "_pages_v_blocks_map_view_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v_blocks_map_view"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_kpi_card_locales" ADD CONSTRAINT "_pages_v_blocks_kpi_card_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v_blocks_kpi_card"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_chart_locales" ADD CONSTRAINT "_pages_v_blocks_chart_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v_blocks_chart"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_entity_table_locales" ADD CONSTRAINT "_pages_v_blocks_entity_table_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v_blocks_entity_table"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_alerts_panel_locales" ADD CONSTRAINT "_pages_v_blocks_alerts_panel_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v_blocks_alerts_panel"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_weather_now_locales" ADD CONSTRAINT "_pages_v_blocks_weather_now_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v_blocks_weather_now"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_content_columns_locales" ADD CONSTRAINT "_pages_v_blocks_content_columns_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v_blocks_content_columns"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_cta_links_locales" ADD CONSTRAINT "_pages_v_blocks_cta_links_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v_blocks_cta_links"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_cta_locales" ADD CONSTRAINT "_pages_v_blocks_cta_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v_blocks_cta"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_blocks_media_block_locales" ADD CONSTRAINT "_pages_v_blocks_media_block_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v_blocks_media_block"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_pages_v_locales" ADD CONSTRAINT "_pages_v_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_pages_v"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "posts_locales" ADD CONSTRAINT "posts_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_posts_v_locales" ADD CONSTRAINT "_posts_v_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_posts_v"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "categories_locales" ADD CONSTRAINT "categories_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "map_layers_alert_rules_locales" ADD CONSTRAINT "map_layers_alert_rules_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."map_layers_alert_rules"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "map_layers_locales" ADD CONSTRAINT "map_layers_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."map_layers"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "search_locales" ADD CONSTRAINT "search_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."search"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "header_nav_items_locales" ADD CONSTRAINT "header_nav_items_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."header_nav_items"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "footer_nav_items_locales" ADD CONSTRAINT "footer_nav_items_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."footer_nav_items"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "footer_locales" ADD CONSTRAINT "footer_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."footer"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "site_settings_locales" ADD CONSTRAINT "site_settings_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."site_settings"("id") ON DELETE cascade ON UPDATE no action;
  CREATE UNIQUE INDEX "pages_blocks_map_view_locales_locale_parent_id_unique" ON "pages_blocks_map_view_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "pages_blocks_kpi_card_locales_locale_parent_id_unique" ON "pages_blocks_kpi_card_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "pages_blocks_chart_locales_locale_parent_id_unique" ON "pages_blocks_chart_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "pages_blocks_entity_table_locales_locale_parent_id_unique" ON "pages_blocks_entity_table_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "pages_blocks_alerts_panel_locales_locale_parent_id_unique" ON "pages_blocks_alerts_panel_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "pages_blocks_weather_now_locales_locale_parent_id_unique" ON "pages_blocks_weather_now_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "pages_blocks_content_columns_locales_locale_parent_id_unique" ON "pages_blocks_content_columns_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "pages_blocks_cta_links_locales_locale_parent_id_unique" ON "pages_blocks_cta_links_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "pages_blocks_cta_locales_locale_parent_id_unique" ON "pages_blocks_cta_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "pages_blocks_media_block_locales_locale_parent_id_unique" ON "pages_blocks_media_block_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "pages_locales_locale_parent_id_unique" ON "pages_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "_pages_v_blocks_map_view_locales_locale_parent_id_unique" ON "_pages_v_blocks_map_view_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "_pages_v_blocks_kpi_card_locales_locale_parent_id_unique" ON "_pages_v_blocks_kpi_card_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "_pages_v_blocks_chart_locales_locale_parent_id_unique" ON "_pages_v_blocks_chart_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "_pages_v_blocks_entity_table_locales_locale_parent_id_unique" ON "_pages_v_blocks_entity_table_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "_pages_v_blocks_alerts_panel_locales_locale_parent_id_unique" ON "_pages_v_blocks_alerts_panel_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "_pages_v_blocks_weather_now_locales_locale_parent_id_unique" ON "_pages_v_blocks_weather_now_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "_pages_v_blocks_content_columns_locales_locale_parent_id_uni" ON "_pages_v_blocks_content_columns_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "_pages_v_blocks_cta_links_locales_locale_parent_id_unique" ON "_pages_v_blocks_cta_links_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "_pages_v_blocks_cta_locales_locale_parent_id_unique" ON "_pages_v_blocks_cta_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "_pages_v_blocks_media_block_locales_locale_parent_id_unique" ON "_pages_v_blocks_media_block_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "_pages_v_locales_locale_parent_id_unique" ON "_pages_v_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "posts_locales_locale_parent_id_unique" ON "posts_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "_posts_v_locales_locale_parent_id_unique" ON "_posts_v_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "categories_locales_locale_parent_id_unique" ON "categories_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "map_layers_alert_rules_locales_locale_parent_id_unique" ON "map_layers_alert_rules_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "map_layers_locales_locale_parent_id_unique" ON "map_layers_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "search_locales_locale_parent_id_unique" ON "search_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "header_nav_items_locales_locale_parent_id_unique" ON "header_nav_items_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "footer_nav_items_locales_locale_parent_id_unique" ON "footer_nav_items_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "footer_locales_locale_parent_id_unique" ON "footer_locales" USING btree ("_locale","_parent_id");
  CREATE UNIQUE INDEX "site_settings_locales_locale_parent_id_unique" ON "site_settings_locales" USING btree ("_locale","_parent_id");
  CREATE INDEX "_pages_v_snapshot_idx" ON "_pages_v" USING btree ("snapshot");
  CREATE INDEX "_pages_v_published_locale_idx" ON "_pages_v" USING btree ("published_locale");
  CREATE INDEX "_posts_v_snapshot_idx" ON "_posts_v" USING btree ("snapshot");
  CREATE INDEX "_posts_v_published_locale_idx" ON "_posts_v" USING btree ("published_locale");
  CREATE INDEX "categories_breadcrumbs_locale_idx" ON "categories_breadcrumbs" USING btree ("_locale");
  `)
  for (const statement of copyIntoLocales()) await db.execute(sql.raw(statement))
  await db.execute(sql`
  ALTER TABLE "pages_blocks_map_view" DROP COLUMN "title";
  ALTER TABLE "pages_blocks_kpi_card" DROP COLUMN "label";
  ALTER TABLE "pages_blocks_chart" DROP COLUMN "title";
  ALTER TABLE "pages_blocks_entity_table" DROP COLUMN "title";
  ALTER TABLE "pages_blocks_alerts_panel" DROP COLUMN "title";
  ALTER TABLE "pages_blocks_weather_now" DROP COLUMN "title";
  ALTER TABLE "pages_blocks_content_columns" DROP COLUMN "rich_text";
  ALTER TABLE "pages_blocks_cta_links" DROP COLUMN "link_label";
  ALTER TABLE "pages_blocks_cta" DROP COLUMN "rich_text";
  ALTER TABLE "pages_blocks_media_block" DROP COLUMN "caption";
  ALTER TABLE "pages" DROP COLUMN "title";
  ALTER TABLE "pages" DROP COLUMN "meta_title";
  ALTER TABLE "pages" DROP COLUMN "meta_description";
  ALTER TABLE "_pages_v_blocks_map_view" DROP COLUMN "title";
  ALTER TABLE "_pages_v_blocks_kpi_card" DROP COLUMN "label";
  ALTER TABLE "_pages_v_blocks_chart" DROP COLUMN "title";
  ALTER TABLE "_pages_v_blocks_entity_table" DROP COLUMN "title";
  ALTER TABLE "_pages_v_blocks_alerts_panel" DROP COLUMN "title";
  ALTER TABLE "_pages_v_blocks_weather_now" DROP COLUMN "title";
  ALTER TABLE "_pages_v_blocks_content_columns" DROP COLUMN "rich_text";
  ALTER TABLE "_pages_v_blocks_cta_links" DROP COLUMN "link_label";
  ALTER TABLE "_pages_v_blocks_cta" DROP COLUMN "rich_text";
  ALTER TABLE "_pages_v_blocks_media_block" DROP COLUMN "caption";
  ALTER TABLE "_pages_v" DROP COLUMN "version_title";
  ALTER TABLE "_pages_v" DROP COLUMN "version_meta_title";
  ALTER TABLE "_pages_v" DROP COLUMN "version_meta_description";
  ALTER TABLE "posts" DROP COLUMN "title";
  ALTER TABLE "posts" DROP COLUMN "content";
  ALTER TABLE "posts" DROP COLUMN "meta_title";
  ALTER TABLE "posts" DROP COLUMN "meta_description";
  ALTER TABLE "_posts_v" DROP COLUMN "version_title";
  ALTER TABLE "_posts_v" DROP COLUMN "version_content";
  ALTER TABLE "_posts_v" DROP COLUMN "version_meta_title";
  ALTER TABLE "_posts_v" DROP COLUMN "version_meta_description";
  ALTER TABLE "categories" DROP COLUMN "title";
  ALTER TABLE "map_layers_alert_rules" DROP COLUMN "message";
  ALTER TABLE "map_layers" DROP COLUMN "name";
  ALTER TABLE "map_layers" DROP COLUMN "description";
  ALTER TABLE "search" DROP COLUMN "title";
  ALTER TABLE "header_nav_items" DROP COLUMN "link_label";
  ALTER TABLE "footer_nav_items" DROP COLUMN "link_label";
  ALTER TABLE "footer" DROP COLUMN "contact_address";
  ALTER TABLE "footer" DROP COLUMN "copyright";
  ALTER TABLE "site_settings" DROP COLUMN "title";
  ALTER TABLE "site_settings" DROP COLUMN "description";
  ALTER TABLE "site_settings" DROP COLUMN "metadata_keywords";`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  // The task enum loses 'translate': its drafts go first.
  await db.execute(sql`DELETE FROM "ai_drafts" WHERE "task" = 'translate';`)
  await db.execute(sql`
  ALTER TABLE "ai_drafts" ALTER COLUMN "task" SET DATA TYPE text;
  DROP TYPE "public"."enum_ai_drafts_task";
  CREATE TYPE "public"."enum_ai_drafts_task" AS ENUM('post-draft', 'layer-description', 'colour-suggestion', 'documentation', 'sample-data', 'search-keywords', 'citizen-answer');
  ALTER TABLE "ai_drafts" ALTER COLUMN "task" SET DATA TYPE "public"."enum_ai_drafts_task" USING "task"::"public"."enum_ai_drafts_task";
  DROP INDEX "_pages_v_snapshot_idx";
  DROP INDEX "_pages_v_published_locale_idx";
  DROP INDEX "_posts_v_snapshot_idx";
  DROP INDEX "_posts_v_published_locale_idx";
  DROP INDEX "categories_breadcrumbs_locale_idx";
  ALTER TABLE "pages_blocks_map_view" ADD COLUMN "title" varchar;
  ALTER TABLE "pages_blocks_kpi_card" ADD COLUMN "label" varchar;
  ALTER TABLE "pages_blocks_chart" ADD COLUMN "title" varchar;
  ALTER TABLE "pages_blocks_entity_table" ADD COLUMN "title" varchar;
  ALTER TABLE "pages_blocks_alerts_panel" ADD COLUMN "title" varchar DEFAULT 'Alerts now';
  ALTER TABLE "pages_blocks_weather_now" ADD COLUMN "title" varchar DEFAULT 'Weather now';
  ALTER TABLE "pages_blocks_content_columns" ADD COLUMN "rich_text" jsonb;
  ALTER TABLE "pages_blocks_cta_links" ADD COLUMN "link_label" varchar;
  ALTER TABLE "pages_blocks_cta" ADD COLUMN "rich_text" jsonb;
  ALTER TABLE "pages_blocks_media_block" ADD COLUMN "caption" varchar;
  ALTER TABLE "pages" ADD COLUMN "title" varchar;
  ALTER TABLE "pages" ADD COLUMN "meta_title" varchar;
  ALTER TABLE "pages" ADD COLUMN "meta_description" varchar;
  ALTER TABLE "_pages_v_blocks_map_view" ADD COLUMN "title" varchar;
  ALTER TABLE "_pages_v_blocks_kpi_card" ADD COLUMN "label" varchar;
  ALTER TABLE "_pages_v_blocks_chart" ADD COLUMN "title" varchar;
  ALTER TABLE "_pages_v_blocks_entity_table" ADD COLUMN "title" varchar;
  ALTER TABLE "_pages_v_blocks_alerts_panel" ADD COLUMN "title" varchar DEFAULT 'Alerts now';
  ALTER TABLE "_pages_v_blocks_weather_now" ADD COLUMN "title" varchar DEFAULT 'Weather now';
  ALTER TABLE "_pages_v_blocks_content_columns" ADD COLUMN "rich_text" jsonb;
  ALTER TABLE "_pages_v_blocks_cta_links" ADD COLUMN "link_label" varchar;
  ALTER TABLE "_pages_v_blocks_cta" ADD COLUMN "rich_text" jsonb;
  ALTER TABLE "_pages_v_blocks_media_block" ADD COLUMN "caption" varchar;
  ALTER TABLE "_pages_v" ADD COLUMN "version_title" varchar;
  ALTER TABLE "_pages_v" ADD COLUMN "version_meta_title" varchar;
  ALTER TABLE "_pages_v" ADD COLUMN "version_meta_description" varchar;
  ALTER TABLE "posts" ADD COLUMN "title" varchar;
  ALTER TABLE "posts" ADD COLUMN "content" jsonb;
  ALTER TABLE "posts" ADD COLUMN "meta_title" varchar;
  ALTER TABLE "posts" ADD COLUMN "meta_description" varchar;
  ALTER TABLE "_posts_v" ADD COLUMN "version_title" varchar;
  ALTER TABLE "_posts_v" ADD COLUMN "version_content" jsonb;
  ALTER TABLE "_posts_v" ADD COLUMN "version_meta_title" varchar;
  ALTER TABLE "_posts_v" ADD COLUMN "version_meta_description" varchar;
  ALTER TABLE "categories" ADD COLUMN "title" varchar;
  ALTER TABLE "map_layers_alert_rules" ADD COLUMN "message" varchar;
  ALTER TABLE "map_layers" ADD COLUMN "name" varchar;
  ALTER TABLE "map_layers" ADD COLUMN "description" varchar;
  ALTER TABLE "search" ADD COLUMN "title" varchar;
  ALTER TABLE "header_nav_items" ADD COLUMN "link_label" varchar;
  ALTER TABLE "footer_nav_items" ADD COLUMN "link_label" varchar;
  ALTER TABLE "footer" ADD COLUMN "contact_address" varchar;
  ALTER TABLE "footer" ADD COLUMN "copyright" varchar;
  ALTER TABLE "site_settings" ADD COLUMN "title" varchar DEFAULT 'City Dashboard' NOT NULL;
  ALTER TABLE "site_settings" ADD COLUMN "description" varchar;
  ALTER TABLE "site_settings" ADD COLUMN "metadata_keywords" varchar;
  ALTER TABLE "_pages_v" DROP COLUMN "snapshot";
  ALTER TABLE "_pages_v" DROP COLUMN "published_locale";
  ALTER TABLE "_posts_v" DROP COLUMN "snapshot";
  ALTER TABLE "_posts_v" DROP COLUMN "published_locale";
  ALTER TABLE "categories_breadcrumbs" DROP COLUMN "_locale";
  ALTER TABLE "ai_drafts" DROP COLUMN "target_locale";
  ALTER TABLE "site_settings_cities" DROP COLUMN "locale";
  ALTER TABLE "site_settings_cities" DROP COLUMN "time_zone";
  ALTER TABLE "site_settings" DROP COLUMN "ai_translate";
  DROP TYPE "public"."enum__pages_v_published_locale";
  DROP TYPE "public"."enum__posts_v_published_locale";
  DROP TYPE "public"."enum_ai_drafts_target_locale";
  DROP TYPE "public"."enum_site_settings_cities_locale";`)
  for (const statement of copyBackFromLocales()) await db.execute(sql.raw(statement))
  await db.execute(sql`
  ALTER TABLE "categories" ALTER COLUMN "title" SET NOT NULL;
  ALTER TABLE "map_layers_alert_rules" ALTER COLUMN "message" SET NOT NULL;
  ALTER TABLE "map_layers" ALTER COLUMN "name" SET NOT NULL;
  ALTER TABLE "header_nav_items" ALTER COLUMN "link_label" SET NOT NULL;
  ALTER TABLE "footer_nav_items" ALTER COLUMN "link_label" SET NOT NULL;
  ALTER TABLE "pages_blocks_map_view_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "pages_blocks_kpi_card_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "pages_blocks_chart_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "pages_blocks_entity_table_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "pages_blocks_alerts_panel_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "pages_blocks_weather_now_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "pages_blocks_content_columns_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "pages_blocks_cta_links_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "pages_blocks_cta_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "pages_blocks_media_block_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "pages_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_map_view_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_kpi_card_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_chart_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_entity_table_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_alerts_panel_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_weather_now_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_content_columns_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_cta_links_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_cta_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_blocks_media_block_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_pages_v_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "posts_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_posts_v_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "categories_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "map_layers_alert_rules_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "map_layers_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "search_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "header_nav_items_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "footer_nav_items_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "footer_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "site_settings_locales" DISABLE ROW LEVEL SECURITY;
  DROP TABLE "pages_blocks_map_view_locales" CASCADE;
  DROP TABLE "pages_blocks_kpi_card_locales" CASCADE;
  DROP TABLE "pages_blocks_chart_locales" CASCADE;
  DROP TABLE "pages_blocks_entity_table_locales" CASCADE;
  DROP TABLE "pages_blocks_alerts_panel_locales" CASCADE;
  DROP TABLE "pages_blocks_weather_now_locales" CASCADE;
  DROP TABLE "pages_blocks_content_columns_locales" CASCADE;
  DROP TABLE "pages_blocks_cta_links_locales" CASCADE;
  DROP TABLE "pages_blocks_cta_locales" CASCADE;
  DROP TABLE "pages_blocks_media_block_locales" CASCADE;
  DROP TABLE "pages_locales" CASCADE;
  DROP TABLE "_pages_v_blocks_map_view_locales" CASCADE;
  DROP TABLE "_pages_v_blocks_kpi_card_locales" CASCADE;
  DROP TABLE "_pages_v_blocks_chart_locales" CASCADE;
  DROP TABLE "_pages_v_blocks_entity_table_locales" CASCADE;
  DROP TABLE "_pages_v_blocks_alerts_panel_locales" CASCADE;
  DROP TABLE "_pages_v_blocks_weather_now_locales" CASCADE;
  DROP TABLE "_pages_v_blocks_content_columns_locales" CASCADE;
  DROP TABLE "_pages_v_blocks_cta_links_locales" CASCADE;
  DROP TABLE "_pages_v_blocks_cta_locales" CASCADE;
  DROP TABLE "_pages_v_blocks_media_block_locales" CASCADE;
  DROP TABLE "_pages_v_locales" CASCADE;
  DROP TABLE "posts_locales" CASCADE;
  DROP TABLE "_posts_v_locales" CASCADE;
  DROP TABLE "categories_locales" CASCADE;
  DROP TABLE "map_layers_alert_rules_locales" CASCADE;
  DROP TABLE "map_layers_locales" CASCADE;
  DROP TABLE "search_locales" CASCADE;
  DROP TABLE "header_nav_items_locales" CASCADE;
  DROP TABLE "footer_nav_items_locales" CASCADE;
  DROP TABLE "footer_locales" CASCADE;
  DROP TABLE "site_settings_locales" CASCADE;
  DROP TYPE "public"."_locales";`)
}
