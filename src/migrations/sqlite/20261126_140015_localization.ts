import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

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
  await db.run(sql`CREATE TABLE \`pages_blocks_map_view_locales\` (
  	\`title\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages_blocks_map_view\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`pages_blocks_map_view_locales_locale_parent_id_unique\` ON \`pages_blocks_map_view_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`pages_blocks_kpi_card_locales\` (
  	\`label\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages_blocks_kpi_card\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`pages_blocks_kpi_card_locales_locale_parent_id_unique\` ON \`pages_blocks_kpi_card_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`pages_blocks_chart_locales\` (
  	\`title\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages_blocks_chart\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`pages_blocks_chart_locales_locale_parent_id_unique\` ON \`pages_blocks_chart_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`pages_blocks_entity_table_locales\` (
  	\`title\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages_blocks_entity_table\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`pages_blocks_entity_table_locales_locale_parent_id_unique\` ON \`pages_blocks_entity_table_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`pages_blocks_alerts_panel_locales\` (
  	\`title\` text DEFAULT 'Alerts now',
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages_blocks_alerts_panel\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`pages_blocks_alerts_panel_locales_locale_parent_id_unique\` ON \`pages_blocks_alerts_panel_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`pages_blocks_weather_now_locales\` (
  	\`title\` text DEFAULT 'Weather now',
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages_blocks_weather_now\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`pages_blocks_weather_now_locales_locale_parent_id_unique\` ON \`pages_blocks_weather_now_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`pages_blocks_content_columns_locales\` (
  	\`rich_text\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages_blocks_content_columns\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`pages_blocks_content_columns_locales_locale_parent_id_unique\` ON \`pages_blocks_content_columns_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`pages_blocks_cta_links_locales\` (
  	\`link_label\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages_blocks_cta_links\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`pages_blocks_cta_links_locales_locale_parent_id_unique\` ON \`pages_blocks_cta_links_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`pages_blocks_cta_locales\` (
  	\`rich_text\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages_blocks_cta\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`pages_blocks_cta_locales_locale_parent_id_unique\` ON \`pages_blocks_cta_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`pages_blocks_media_block_locales\` (
  	\`caption\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages_blocks_media_block\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`pages_blocks_media_block_locales_locale_parent_id_unique\` ON \`pages_blocks_media_block_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`pages_locales\` (
  	\`title\` text,
  	\`meta_title\` text,
  	\`meta_description\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`pages_locales_locale_parent_id_unique\` ON \`pages_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_map_view_locales\` (
  	\`title\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v_blocks_map_view\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`_pages_v_blocks_map_view_locales_locale_parent_id_unique\` ON \`_pages_v_blocks_map_view_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_kpi_card_locales\` (
  	\`label\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v_blocks_kpi_card\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`_pages_v_blocks_kpi_card_locales_locale_parent_id_unique\` ON \`_pages_v_blocks_kpi_card_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_chart_locales\` (
  	\`title\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v_blocks_chart\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`_pages_v_blocks_chart_locales_locale_parent_id_unique\` ON \`_pages_v_blocks_chart_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_entity_table_locales\` (
  	\`title\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v_blocks_entity_table\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`_pages_v_blocks_entity_table_locales_locale_parent_id_unique\` ON \`_pages_v_blocks_entity_table_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_alerts_panel_locales\` (
  	\`title\` text DEFAULT 'Alerts now',
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v_blocks_alerts_panel\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`_pages_v_blocks_alerts_panel_locales_locale_parent_id_unique\` ON \`_pages_v_blocks_alerts_panel_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_weather_now_locales\` (
  	\`title\` text DEFAULT 'Weather now',
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v_blocks_weather_now\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`_pages_v_blocks_weather_now_locales_locale_parent_id_unique\` ON \`_pages_v_blocks_weather_now_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_content_columns_locales\` (
  	\`rich_text\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v_blocks_content_columns\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`_pages_v_blocks_content_columns_locales_locale_parent_id_uni\` ON \`_pages_v_blocks_content_columns_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_cta_links_locales\` (
  	\`link_label\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v_blocks_cta_links\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`_pages_v_blocks_cta_links_locales_locale_parent_id_unique\` ON \`_pages_v_blocks_cta_links_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_cta_locales\` (
  	\`rich_text\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v_blocks_cta\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`_pages_v_blocks_cta_locales_locale_parent_id_unique\` ON \`_pages_v_blocks_cta_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_media_block_locales\` (
  	\`caption\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v_blocks_media_block\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`_pages_v_blocks_media_block_locales_locale_parent_id_unique\` ON \`_pages_v_blocks_media_block_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_locales\` (
  	\`version_title\` text,
  	\`version_meta_title\` text,
  	\`version_meta_description\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`_pages_v_locales_locale_parent_id_unique\` ON \`_pages_v_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`posts_locales\` (
  	\`title\` text,
  	\`content\` text,
  	\`meta_title\` text,
  	\`meta_description\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`posts\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`posts_locales_locale_parent_id_unique\` ON \`posts_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`_posts_v_locales\` (
  	\`version_title\` text,
  	\`version_content\` text,
  	\`version_meta_title\` text,
  	\`version_meta_description\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_posts_v\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`_posts_v_locales_locale_parent_id_unique\` ON \`_posts_v_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`categories_locales\` (
  	\`title\` text NOT NULL,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`categories\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`categories_locales_locale_parent_id_unique\` ON \`categories_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`map_layers_alert_rules_locales\` (
  	\`message\` text NOT NULL,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`map_layers_alert_rules\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`map_layers_alert_rules_locales_locale_parent_id_unique\` ON \`map_layers_alert_rules_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`map_layers_locales\` (
  	\`name\` text NOT NULL,
  	\`description\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`map_layers\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`map_layers_locales_locale_parent_id_unique\` ON \`map_layers_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`search_locales\` (
  	\`title\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`search\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`search_locales_locale_parent_id_unique\` ON \`search_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`header_nav_items_locales\` (
  	\`link_label\` text NOT NULL,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`header_nav_items\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`header_nav_items_locales_locale_parent_id_unique\` ON \`header_nav_items_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`footer_nav_items_locales\` (
  	\`link_label\` text NOT NULL,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`footer_nav_items\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`footer_nav_items_locales_locale_parent_id_unique\` ON \`footer_nav_items_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`footer_locales\` (
  	\`contact_address\` text,
  	\`copyright\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`footer\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`footer_locales_locale_parent_id_unique\` ON \`footer_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`site_settings_locales\` (
  	\`title\` text DEFAULT 'City Dashboard' NOT NULL,
  	\`description\` text,
  	\`metadata_keywords\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`site_settings\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`site_settings_locales_locale_parent_id_unique\` ON \`site_settings_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`ALTER TABLE \`_pages_v\` ADD \`snapshot\` integer;`)
  await db.run(sql`ALTER TABLE \`_pages_v\` ADD \`published_locale\` text;`)
  await db.run(sql`CREATE INDEX \`_pages_v_snapshot_idx\` ON \`_pages_v\` (\`snapshot\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_published_locale_idx\` ON \`_pages_v\` (\`published_locale\`);`)
  for (const statement of copyIntoLocales()) await db.run(sql.raw(statement))
  await db.run(sql`ALTER TABLE \`_pages_v\` DROP COLUMN \`version_title\`;`)
  await db.run(sql`ALTER TABLE \`_pages_v\` DROP COLUMN \`version_meta_title\`;`)
  await db.run(sql`ALTER TABLE \`_pages_v\` DROP COLUMN \`version_meta_description\`;`)
  await db.run(sql`ALTER TABLE \`_posts_v\` ADD \`snapshot\` integer;`)
  await db.run(sql`ALTER TABLE \`_posts_v\` ADD \`published_locale\` text;`)
  await db.run(sql`CREATE INDEX \`_posts_v_snapshot_idx\` ON \`_posts_v\` (\`snapshot\`);`)
  await db.run(sql`CREATE INDEX \`_posts_v_published_locale_idx\` ON \`_posts_v\` (\`published_locale\`);`)
  await db.run(sql`ALTER TABLE \`_posts_v\` DROP COLUMN \`version_title\`;`)
  await db.run(sql`ALTER TABLE \`_posts_v\` DROP COLUMN \`version_content\`;`)
  await db.run(sql`ALTER TABLE \`_posts_v\` DROP COLUMN \`version_meta_title\`;`)
  await db.run(sql`ALTER TABLE \`_posts_v\` DROP COLUMN \`version_meta_description\`;`)
  await db.run(sql`ALTER TABLE \`categories_breadcrumbs\` ADD \`_locale\` text DEFAULT 'es' NOT NULL;`)
  await db.run(sql`CREATE INDEX \`categories_breadcrumbs_locale_idx\` ON \`categories_breadcrumbs\` (\`_locale\`);`)
  await db.run(sql`ALTER TABLE \`ai_drafts\` ADD \`target_locale\` text;`)
  await db.run(sql`ALTER TABLE \`site_settings_cities\` ADD \`locale\` text DEFAULT 'es' NOT NULL;`)
  await db.run(sql`ALTER TABLE \`site_settings_cities\` ADD \`time_zone\` text DEFAULT 'Europe/Madrid' NOT NULL;`)
  await db.run(sql`ALTER TABLE \`site_settings\` ADD \`ai_translate\` integer DEFAULT true;`)
  await db.run(sql`ALTER TABLE \`site_settings\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`site_settings\` DROP COLUMN \`description\`;`)
  await db.run(sql`ALTER TABLE \`site_settings\` DROP COLUMN \`metadata_keywords\`;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_map_view\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_kpi_card\` DROP COLUMN \`label\`;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_chart\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_entity_table\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_alerts_panel\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_weather_now\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_content_columns\` DROP COLUMN \`rich_text\`;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_cta_links\` DROP COLUMN \`link_label\`;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_cta\` DROP COLUMN \`rich_text\`;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_media_block\` DROP COLUMN \`caption\`;`)
  await db.run(sql`ALTER TABLE \`pages\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`pages\` DROP COLUMN \`meta_title\`;`)
  await db.run(sql`ALTER TABLE \`pages\` DROP COLUMN \`meta_description\`;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_map_view\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_kpi_card\` DROP COLUMN \`label\`;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_chart\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_entity_table\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_alerts_panel\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_weather_now\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_content_columns\` DROP COLUMN \`rich_text\`;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_cta_links\` DROP COLUMN \`link_label\`;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_cta\` DROP COLUMN \`rich_text\`;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_media_block\` DROP COLUMN \`caption\`;`)
  await db.run(sql`ALTER TABLE \`posts\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`posts\` DROP COLUMN \`content\`;`)
  await db.run(sql`ALTER TABLE \`posts\` DROP COLUMN \`meta_title\`;`)
  await db.run(sql`ALTER TABLE \`posts\` DROP COLUMN \`meta_description\`;`)
  await db.run(sql`ALTER TABLE \`categories\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`map_layers_alert_rules\` DROP COLUMN \`message\`;`)
  await db.run(sql`ALTER TABLE \`map_layers\` DROP COLUMN \`name\`;`)
  await db.run(sql`ALTER TABLE \`map_layers\` DROP COLUMN \`description\`;`)
  await db.run(sql`ALTER TABLE \`search\` DROP COLUMN \`title\`;`)
  await db.run(sql`ALTER TABLE \`header_nav_items\` DROP COLUMN \`link_label\`;`)
  await db.run(sql`ALTER TABLE \`footer_nav_items\` DROP COLUMN \`link_label\`;`)
  await db.run(sql`ALTER TABLE \`footer\` DROP COLUMN \`contact_address\`;`)
  await db.run(sql`ALTER TABLE \`footer\` DROP COLUMN \`copyright\`;`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP INDEX \`_pages_v_snapshot_idx\`;`)
  await db.run(sql`DROP INDEX \`_pages_v_published_locale_idx\`;`)
  await db.run(sql`ALTER TABLE \`_pages_v\` ADD \`version_title\` text;`)
  await db.run(sql`ALTER TABLE \`_pages_v\` ADD \`version_meta_title\` text;`)
  await db.run(sql`ALTER TABLE \`_pages_v\` ADD \`version_meta_description\` text;`)
  await db.run(sql`ALTER TABLE \`_pages_v\` DROP COLUMN \`snapshot\`;`)
  await db.run(sql`ALTER TABLE \`_pages_v\` DROP COLUMN \`published_locale\`;`)
  await db.run(sql`DROP INDEX \`_posts_v_snapshot_idx\`;`)
  await db.run(sql`DROP INDEX \`_posts_v_published_locale_idx\`;`)
  await db.run(sql`ALTER TABLE \`_posts_v\` ADD \`version_title\` text;`)
  await db.run(sql`ALTER TABLE \`_posts_v\` ADD \`version_content\` text;`)
  await db.run(sql`ALTER TABLE \`_posts_v\` ADD \`version_meta_title\` text;`)
  await db.run(sql`ALTER TABLE \`_posts_v\` ADD \`version_meta_description\` text;`)
  await db.run(sql`ALTER TABLE \`_posts_v\` DROP COLUMN \`snapshot\`;`)
  await db.run(sql`ALTER TABLE \`_posts_v\` DROP COLUMN \`published_locale\`;`)
  await db.run(sql`DROP INDEX \`categories_breadcrumbs_locale_idx\`;`)
  await db.run(sql`ALTER TABLE \`categories_breadcrumbs\` DROP COLUMN \`_locale\`;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_map_view\` ADD \`title\` text;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_kpi_card\` ADD \`label\` text;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_chart\` ADD \`title\` text;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_entity_table\` ADD \`title\` text;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_alerts_panel\` ADD \`title\` text DEFAULT 'Alerts now';`)
  await db.run(sql`ALTER TABLE \`pages_blocks_weather_now\` ADD \`title\` text DEFAULT 'Weather now';`)
  await db.run(sql`ALTER TABLE \`pages_blocks_content_columns\` ADD \`rich_text\` text;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_cta_links\` ADD \`link_label\` text;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_cta\` ADD \`rich_text\` text;`)
  await db.run(sql`ALTER TABLE \`pages_blocks_media_block\` ADD \`caption\` text;`)
  await db.run(sql`ALTER TABLE \`pages\` ADD \`title\` text;`)
  await db.run(sql`ALTER TABLE \`pages\` ADD \`meta_title\` text;`)
  await db.run(sql`ALTER TABLE \`pages\` ADD \`meta_description\` text;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_map_view\` ADD \`title\` text;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_kpi_card\` ADD \`label\` text;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_chart\` ADD \`title\` text;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_entity_table\` ADD \`title\` text;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_alerts_panel\` ADD \`title\` text DEFAULT 'Alerts now';`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_weather_now\` ADD \`title\` text DEFAULT 'Weather now';`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_content_columns\` ADD \`rich_text\` text;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_cta_links\` ADD \`link_label\` text;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_cta\` ADD \`rich_text\` text;`)
  await db.run(sql`ALTER TABLE \`_pages_v_blocks_media_block\` ADD \`caption\` text;`)
  await db.run(sql`ALTER TABLE \`posts\` ADD \`title\` text;`)
  await db.run(sql`ALTER TABLE \`posts\` ADD \`content\` text;`)
  await db.run(sql`ALTER TABLE \`posts\` ADD \`meta_title\` text;`)
  await db.run(sql`ALTER TABLE \`posts\` ADD \`meta_description\` text;`)
  await db.run(sql`ALTER TABLE \`categories\` ADD \`title\` text DEFAULT '' NOT NULL;`)
  await db.run(sql`ALTER TABLE \`map_layers_alert_rules\` ADD \`message\` text DEFAULT '' NOT NULL;`)
  await db.run(sql`ALTER TABLE \`map_layers\` ADD \`name\` text DEFAULT '' NOT NULL;`)
  await db.run(sql`ALTER TABLE \`map_layers\` ADD \`description\` text;`)
  await db.run(sql`ALTER TABLE \`search\` ADD \`title\` text;`)
  await db.run(sql`ALTER TABLE \`header_nav_items\` ADD \`link_label\` text DEFAULT '' NOT NULL;`)
  await db.run(sql`ALTER TABLE \`footer_nav_items\` ADD \`link_label\` text DEFAULT '' NOT NULL;`)
  await db.run(sql`ALTER TABLE \`footer\` ADD \`contact_address\` text;`)
  await db.run(sql`ALTER TABLE \`footer\` ADD \`copyright\` text;`)
  await db.run(sql`ALTER TABLE \`site_settings\` ADD \`title\` text DEFAULT 'City Dashboard' NOT NULL;`)
  await db.run(sql`ALTER TABLE \`site_settings\` ADD \`description\` text;`)
  await db.run(sql`ALTER TABLE \`site_settings\` ADD \`metadata_keywords\` text;`)
  await db.run(sql`ALTER TABLE \`site_settings\` DROP COLUMN \`ai_translate\`;`)
  await db.run(sql`ALTER TABLE \`ai_drafts\` DROP COLUMN \`target_locale\`;`)
  await db.run(sql`ALTER TABLE \`site_settings_cities\` DROP COLUMN \`locale\`;`)
  await db.run(sql`ALTER TABLE \`site_settings_cities\` DROP COLUMN \`time_zone\`;`)
  for (const statement of copyBackFromLocales()) await db.run(sql.raw(statement))
  await db.run(sql`DROP TABLE \`pages_blocks_map_view_locales\`;`)
  await db.run(sql`DROP TABLE \`pages_blocks_kpi_card_locales\`;`)
  await db.run(sql`DROP TABLE \`pages_blocks_chart_locales\`;`)
  await db.run(sql`DROP TABLE \`pages_blocks_entity_table_locales\`;`)
  await db.run(sql`DROP TABLE \`pages_blocks_alerts_panel_locales\`;`)
  await db.run(sql`DROP TABLE \`pages_blocks_weather_now_locales\`;`)
  await db.run(sql`DROP TABLE \`pages_blocks_content_columns_locales\`;`)
  await db.run(sql`DROP TABLE \`pages_blocks_cta_links_locales\`;`)
  await db.run(sql`DROP TABLE \`pages_blocks_cta_locales\`;`)
  await db.run(sql`DROP TABLE \`pages_blocks_media_block_locales\`;`)
  await db.run(sql`DROP TABLE \`pages_locales\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_map_view_locales\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_kpi_card_locales\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_chart_locales\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_entity_table_locales\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_alerts_panel_locales\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_weather_now_locales\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_content_columns_locales\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_cta_links_locales\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_cta_locales\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_media_block_locales\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_locales\`;`)
  await db.run(sql`DROP TABLE \`posts_locales\`;`)
  await db.run(sql`DROP TABLE \`_posts_v_locales\`;`)
  await db.run(sql`DROP TABLE \`categories_locales\`;`)
  await db.run(sql`DROP TABLE \`map_layers_alert_rules_locales\`;`)
  await db.run(sql`DROP TABLE \`map_layers_locales\`;`)
  await db.run(sql`DROP TABLE \`search_locales\`;`)
  await db.run(sql`DROP TABLE \`header_nav_items_locales\`;`)
  await db.run(sql`DROP TABLE \`footer_nav_items_locales\`;`)
  await db.run(sql`DROP TABLE \`footer_locales\`;`)
  await db.run(sql`DROP TABLE \`site_settings_locales\`;`)
}
