import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`pages_blocks_weather_now\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`_path\` text NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`title\` text DEFAULT 'Weather now',
  	\`city\` text,
  	\`block_name\` text,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`pages_blocks_weather_now_order_idx\` ON \`pages_blocks_weather_now\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_weather_now_parent_id_idx\` ON \`pages_blocks_weather_now\` (\`_parent_id\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_weather_now_path_idx\` ON \`pages_blocks_weather_now\` (\`_path\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_weather_now\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`_path\` text NOT NULL,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`title\` text DEFAULT 'Weather now',
  	\`city\` text,
  	\`_uuid\` text,
  	\`block_name\` text,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_weather_now_order_idx\` ON \`_pages_v_blocks_weather_now\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_weather_now_parent_id_idx\` ON \`_pages_v_blocks_weather_now\` (\`_parent_id\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_weather_now_path_idx\` ON \`_pages_v_blocks_weather_now\` (\`_path\`);`)
  await db.run(sql`PRAGMA foreign_keys=OFF;`)
  await db.run(sql`CREATE TABLE \`__new_site_settings\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`title\` text DEFAULT 'City Dashboard' NOT NULL,
  	\`description\` text,
  	\`metadata_og_image_id\` integer,
  	\`metadata_keywords\` text,
  	\`metadata_locale\` text DEFAULT 'en',
  	\`map_style_kind\` text DEFAULT 'auto',
  	\`map_style_url\` text,
  	\`ai_post_draft\` integer DEFAULT true,
  	\`ai_layer_description\` integer DEFAULT true,
  	\`ai_colour_suggestion\` integer DEFAULT true,
  	\`ai_documentation\` integer DEFAULT true,
  	\`ai_sample_data\` integer DEFAULT true,
  	\`ai_search_keywords\` integer DEFAULT true,
  	\`ai_citizen_answer\` integer DEFAULT true,
  	\`ai_fallback_models\` text,
  	\`updated_at\` text,
  	\`created_at\` text,
  	FOREIGN KEY (\`metadata_og_image_id\`) REFERENCES \`media\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`INSERT INTO \`__new_site_settings\`("id", "title", "description", "metadata_og_image_id", "metadata_keywords", "metadata_locale", "map_style_kind", "map_style_url", "ai_post_draft", "ai_layer_description", "ai_colour_suggestion", "ai_documentation", "ai_sample_data", "ai_search_keywords", "ai_citizen_answer", "ai_fallback_models", "updated_at", "created_at") SELECT "id", "title", "description", "metadata_og_image_id", "metadata_keywords", "metadata_locale", "map_style_kind", "map_style_url", "ai_post_draft", "ai_layer_description", "ai_colour_suggestion", "ai_documentation", "ai_sample_data", "ai_search_keywords", "ai_citizen_answer", "ai_fallback_models", "updated_at", "created_at" FROM \`site_settings\`;`)
  await db.run(sql`DROP TABLE \`site_settings\`;`)
  await db.run(sql`ALTER TABLE \`__new_site_settings\` RENAME TO \`site_settings\`;`)
  await db.run(sql`PRAGMA foreign_keys=ON;`)
  await db.run(sql`CREATE INDEX \`site_settings_metadata_metadata_og_image_idx\` ON \`site_settings\` (\`metadata_og_image_id\`);`)
  await db.run(sql`ALTER TABLE \`site_settings_cities\` ADD \`basemap\` text;`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  // Hand-written data step (keep when regenerating): the basemap kinds this migration added do not
  // exist before it; those sites go back to the bundled offline style.
  await db.run(sql`UPDATE "site_settings" SET "map_style_kind" = 'offline' WHERE "map_style_kind" IN ('auto', 'pmtiles')`)
  await db.run(sql`DROP TABLE \`pages_blocks_weather_now\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_weather_now\`;`)
  await db.run(sql`PRAGMA foreign_keys=OFF;`)
  await db.run(sql`CREATE TABLE \`__new_site_settings\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`title\` text DEFAULT 'City Dashboard' NOT NULL,
  	\`description\` text,
  	\`metadata_og_image_id\` integer,
  	\`metadata_keywords\` text,
  	\`metadata_locale\` text DEFAULT 'en',
  	\`map_style_kind\` text DEFAULT 'offline',
  	\`map_style_url\` text,
  	\`ai_post_draft\` integer DEFAULT true,
  	\`ai_layer_description\` integer DEFAULT true,
  	\`ai_colour_suggestion\` integer DEFAULT true,
  	\`ai_documentation\` integer DEFAULT true,
  	\`ai_sample_data\` integer DEFAULT true,
  	\`ai_search_keywords\` integer DEFAULT true,
  	\`ai_citizen_answer\` integer DEFAULT true,
  	\`ai_fallback_models\` text,
  	\`updated_at\` text,
  	\`created_at\` text,
  	FOREIGN KEY (\`metadata_og_image_id\`) REFERENCES \`media\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`INSERT INTO \`__new_site_settings\`("id", "title", "description", "metadata_og_image_id", "metadata_keywords", "metadata_locale", "map_style_kind", "map_style_url", "ai_post_draft", "ai_layer_description", "ai_colour_suggestion", "ai_documentation", "ai_sample_data", "ai_search_keywords", "ai_citizen_answer", "ai_fallback_models", "updated_at", "created_at") SELECT "id", "title", "description", "metadata_og_image_id", "metadata_keywords", "metadata_locale", "map_style_kind", "map_style_url", "ai_post_draft", "ai_layer_description", "ai_colour_suggestion", "ai_documentation", "ai_sample_data", "ai_search_keywords", "ai_citizen_answer", "ai_fallback_models", "updated_at", "created_at" FROM \`site_settings\`;`)
  await db.run(sql`DROP TABLE \`site_settings\`;`)
  await db.run(sql`ALTER TABLE \`__new_site_settings\` RENAME TO \`site_settings\`;`)
  await db.run(sql`PRAGMA foreign_keys=ON;`)
  await db.run(sql`CREATE INDEX \`site_settings_metadata_metadata_og_image_idx\` ON \`site_settings\` (\`metadata_og_image_id\`);`)
  await db.run(sql`ALTER TABLE \`site_settings_cities\` DROP COLUMN \`basemap\`;`)
}
