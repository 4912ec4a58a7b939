import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`accessibility_reports\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`description\` text NOT NULL,
  	\`page_url\` text,
  	\`email\` text,
  	\`locale\` text,
  	\`status\` text DEFAULT 'new' NOT NULL,
  	\`staff_notes\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(sql`CREATE INDEX \`accessibility_reports_status_idx\` ON \`accessibility_reports\` (\`status\`);`)
  await db.run(sql`CREATE INDEX \`accessibility_reports_updated_at_idx\` ON \`accessibility_reports\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`accessibility_reports_created_at_idx\` ON \`accessibility_reports\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`accessibility_statement_non_accessible_content\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`reason\` text DEFAULT 'non-compliance' NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`accessibility_statement\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`accessibility_statement_non_accessible_content_order_idx\` ON \`accessibility_statement_non_accessible_content\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`accessibility_statement_non_accessible_content_parent_id_idx\` ON \`accessibility_statement_non_accessible_content\` (\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`accessibility_statement_non_accessible_content_locales\` (
  	\`title\` text NOT NULL,
  	\`description\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`accessibility_statement_non_accessible_content\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`accessibility_statement_non_accessible_content_locales_local\` ON \`accessibility_statement_non_accessible_content_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`accessibility_statement\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`conformance\` text DEFAULT 'partially' NOT NULL,
  	\`prepared_at\` text,
  	\`reviewed_at\` text,
  	\`method\` text DEFAULT 'self-assessment' NOT NULL,
  	\`feedback_email\` text,
  	\`feedback_phone\` text,
  	\`updated_at\` text,
  	\`created_at\` text
  );
  `)
  await db.run(sql`CREATE TABLE \`accessibility_statement_locales\` (
  	\`organisation\` text,
  	\`site_name\` text,
  	\`feedback_text\` text,
  	\`enforcement\` text,
  	\`free_text\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`accessibility_statement\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`accessibility_statement_locales_locale_parent_id_unique\` ON \`accessibility_statement_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`ALTER TABLE \`payload_locked_documents_rels\` ADD \`accessibility_reports_id\` integer REFERENCES accessibility_reports(id);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_accessibility_reports_id_idx\` ON \`payload_locked_documents_rels\` (\`accessibility_reports_id\`);`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`accessibility_reports\`;`)
  await db.run(sql`DROP TABLE \`accessibility_statement_non_accessible_content\`;`)
  await db.run(sql`DROP TABLE \`accessibility_statement_non_accessible_content_locales\`;`)
  await db.run(sql`DROP TABLE \`accessibility_statement\`;`)
  await db.run(sql`DROP TABLE \`accessibility_statement_locales\`;`)
  await db.run(sql`PRAGMA foreign_keys=OFF;`)
  await db.run(sql`CREATE TABLE \`__new_payload_locked_documents_rels\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`order\` integer,
  	\`parent_id\` integer NOT NULL,
  	\`path\` text NOT NULL,
  	\`pages_id\` integer,
  	\`posts_id\` integer,
  	\`media_id\` integer,
  	\`categories_id\` integer,
  	\`map_layers_id\` integer,
  	\`users_id\` integer,
  	\`ai_drafts_id\` integer,
  	\`questions_id\` integer,
  	\`alert_subscriptions_id\` integer,
  	\`alert_notices_id\` integer,
  	\`held_alert_notices_id\` integer,
  	\`search_id\` integer,
  	\`redirects_id\` integer,
  	FOREIGN KEY (\`parent_id\`) REFERENCES \`payload_locked_documents\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`pages_id\`) REFERENCES \`pages\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`posts_id\`) REFERENCES \`posts\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`media_id\`) REFERENCES \`media\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`categories_id\`) REFERENCES \`categories\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`map_layers_id\`) REFERENCES \`map_layers\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`users_id\`) REFERENCES \`users\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`ai_drafts_id\`) REFERENCES \`ai_drafts\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`questions_id\`) REFERENCES \`questions\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`alert_subscriptions_id\`) REFERENCES \`alert_subscriptions\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`alert_notices_id\`) REFERENCES \`alert_notices\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`held_alert_notices_id\`) REFERENCES \`held_alert_notices\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`search_id\`) REFERENCES \`search\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`redirects_id\`) REFERENCES \`redirects\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`INSERT INTO \`__new_payload_locked_documents_rels\`("id", "order", "parent_id", "path", "pages_id", "posts_id", "media_id", "categories_id", "map_layers_id", "users_id", "ai_drafts_id", "questions_id", "alert_subscriptions_id", "alert_notices_id", "held_alert_notices_id", "search_id", "redirects_id") SELECT "id", "order", "parent_id", "path", "pages_id", "posts_id", "media_id", "categories_id", "map_layers_id", "users_id", "ai_drafts_id", "questions_id", "alert_subscriptions_id", "alert_notices_id", "held_alert_notices_id", "search_id", "redirects_id" FROM \`payload_locked_documents_rels\`;`)
  await db.run(sql`DROP TABLE \`payload_locked_documents_rels\`;`)
  await db.run(sql`ALTER TABLE \`__new_payload_locked_documents_rels\` RENAME TO \`payload_locked_documents_rels\`;`)
  await db.run(sql`PRAGMA foreign_keys=ON;`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_order_idx\` ON \`payload_locked_documents_rels\` (\`order\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_parent_idx\` ON \`payload_locked_documents_rels\` (\`parent_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_path_idx\` ON \`payload_locked_documents_rels\` (\`path\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_pages_id_idx\` ON \`payload_locked_documents_rels\` (\`pages_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_posts_id_idx\` ON \`payload_locked_documents_rels\` (\`posts_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_media_id_idx\` ON \`payload_locked_documents_rels\` (\`media_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_categories_id_idx\` ON \`payload_locked_documents_rels\` (\`categories_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_map_layers_id_idx\` ON \`payload_locked_documents_rels\` (\`map_layers_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_users_id_idx\` ON \`payload_locked_documents_rels\` (\`users_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_ai_drafts_id_idx\` ON \`payload_locked_documents_rels\` (\`ai_drafts_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_questions_id_idx\` ON \`payload_locked_documents_rels\` (\`questions_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_alert_subscriptions_id_idx\` ON \`payload_locked_documents_rels\` (\`alert_subscriptions_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_alert_notices_id_idx\` ON \`payload_locked_documents_rels\` (\`alert_notices_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_held_alert_notices_id_idx\` ON \`payload_locked_documents_rels\` (\`held_alert_notices_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_search_id_idx\` ON \`payload_locked_documents_rels\` (\`search_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_redirects_id_idx\` ON \`payload_locked_documents_rels\` (\`redirects_id\`);`)
}
