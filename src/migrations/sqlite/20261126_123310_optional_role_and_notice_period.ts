import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`PRAGMA foreign_keys=OFF;`)
  await db.run(sql`CREATE TABLE \`__new_users\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`name\` text,
  	\`role\` text DEFAULT 'viewer',
  	\`first_admin_claim\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`email\` text NOT NULL,
  	\`reset_password_token\` text,
  	\`reset_password_expiration\` text,
  	\`salt\` text,
  	\`hash\` text,
  	\`reset_password_requested_at\` text
  );
  `)
  await db.run(sql`INSERT INTO \`__new_users\`("id", "name", "role", "first_admin_claim", "updated_at", "created_at", "email", "reset_password_token", "reset_password_expiration", "salt", "hash", "reset_password_requested_at") SELECT "id", "name", "role", "first_admin_claim", "updated_at", "created_at", "email", "reset_password_token", "reset_password_expiration", "salt", "hash", "reset_password_requested_at" FROM \`users\`;`)
  await db.run(sql`DROP TABLE \`users\`;`)
  await db.run(sql`ALTER TABLE \`__new_users\` RENAME TO \`users\`;`)
  await db.run(sql`PRAGMA foreign_keys=ON;`)
  await db.run(sql`CREATE UNIQUE INDEX \`users_first_admin_claim_idx\` ON \`users\` (\`first_admin_claim\`);`)
  await db.run(sql`CREATE INDEX \`users_updated_at_idx\` ON \`users\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`users_created_at_idx\` ON \`users\` (\`created_at\`);`)
  await db.run(sql`CREATE UNIQUE INDEX \`users_email_idx\` ON \`users\` (\`email\`);`)
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
  	\`ai_daily_budget\` numeric DEFAULT 200,
  	\`ai_fallback_models\` text,
  	\`alert_notices_period_minutes\` numeric DEFAULT 60,
  	\`updated_at\` text,
  	\`created_at\` text,
  	FOREIGN KEY (\`metadata_og_image_id\`) REFERENCES \`media\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`INSERT INTO \`__new_site_settings\`("id", "title", "description", "metadata_og_image_id", "metadata_keywords", "metadata_locale", "map_style_kind", "map_style_url", "ai_post_draft", "ai_layer_description", "ai_colour_suggestion", "ai_documentation", "ai_sample_data", "ai_search_keywords", "ai_citizen_answer", "ai_daily_budget", "ai_fallback_models", "alert_notices_period_minutes", "updated_at", "created_at") SELECT "id", "title", "description", "metadata_og_image_id", "metadata_keywords", "metadata_locale", "map_style_kind", "map_style_url", "ai_post_draft", "ai_layer_description", "ai_colour_suggestion", "ai_documentation", "ai_sample_data", "ai_search_keywords", "ai_citizen_answer", "ai_daily_budget", "ai_fallback_models", "alert_notices_period_minutes", "updated_at", "created_at" FROM \`site_settings\`;`)
  await db.run(sql`DROP TABLE \`site_settings\`;`)
  await db.run(sql`ALTER TABLE \`__new_site_settings\` RENAME TO \`site_settings\`;`)
  await db.run(sql`CREATE INDEX \`site_settings_metadata_metadata_og_image_idx\` ON \`site_settings\` (\`metadata_og_image_id\`);`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`PRAGMA foreign_keys=OFF;`)
  await db.run(sql`CREATE TABLE \`__new_users\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`name\` text,
  	\`role\` text DEFAULT 'viewer' NOT NULL,
  	\`first_admin_claim\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`email\` text NOT NULL,
  	\`reset_password_token\` text,
  	\`reset_password_expiration\` text,
  	\`salt\` text,
  	\`hash\` text,
  	\`reset_password_requested_at\` text
  );
  `)
  await db.run(sql`INSERT INTO \`__new_users\`("id", "name", "role", "first_admin_claim", "updated_at", "created_at", "email", "reset_password_token", "reset_password_expiration", "salt", "hash", "reset_password_requested_at") SELECT "id", "name", "role", "first_admin_claim", "updated_at", "created_at", "email", "reset_password_token", "reset_password_expiration", "salt", "hash", "reset_password_requested_at" FROM \`users\`;`)
  await db.run(sql`DROP TABLE \`users\`;`)
  await db.run(sql`ALTER TABLE \`__new_users\` RENAME TO \`users\`;`)
  await db.run(sql`PRAGMA foreign_keys=ON;`)
  await db.run(sql`CREATE UNIQUE INDEX \`users_first_admin_claim_idx\` ON \`users\` (\`first_admin_claim\`);`)
  await db.run(sql`CREATE INDEX \`users_updated_at_idx\` ON \`users\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`users_created_at_idx\` ON \`users\` (\`created_at\`);`)
  await db.run(sql`CREATE UNIQUE INDEX \`users_email_idx\` ON \`users\` (\`email\`);`)
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
  	\`ai_daily_budget\` numeric DEFAULT 200,
  	\`ai_fallback_models\` text,
  	\`alert_notices_period_minutes\` numeric DEFAULT 60 NOT NULL,
  	\`updated_at\` text,
  	\`created_at\` text,
  	FOREIGN KEY (\`metadata_og_image_id\`) REFERENCES \`media\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`INSERT INTO \`__new_site_settings\`("id", "title", "description", "metadata_og_image_id", "metadata_keywords", "metadata_locale", "map_style_kind", "map_style_url", "ai_post_draft", "ai_layer_description", "ai_colour_suggestion", "ai_documentation", "ai_sample_data", "ai_search_keywords", "ai_citizen_answer", "ai_daily_budget", "ai_fallback_models", "alert_notices_period_minutes", "updated_at", "created_at") SELECT "id", "title", "description", "metadata_og_image_id", "metadata_keywords", "metadata_locale", "map_style_kind", "map_style_url", "ai_post_draft", "ai_layer_description", "ai_colour_suggestion", "ai_documentation", "ai_sample_data", "ai_search_keywords", "ai_citizen_answer", "ai_daily_budget", "ai_fallback_models", "alert_notices_period_minutes", "updated_at", "created_at" FROM \`site_settings\`;`)
  await db.run(sql`DROP TABLE \`site_settings\`;`)
  await db.run(sql`ALTER TABLE \`__new_site_settings\` RENAME TO \`site_settings\`;`)
  await db.run(sql`CREATE INDEX \`site_settings_metadata_metadata_og_image_idx\` ON \`site_settings\` (\`metadata_og_image_id\`);`)
}
