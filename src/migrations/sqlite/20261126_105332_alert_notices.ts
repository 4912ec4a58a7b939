import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`alert_subscriptions\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`email\` text NOT NULL,
  	\`subscriber_key\` text NOT NULL,
  	\`layer_id\` integer NOT NULL,
  	\`city\` text NOT NULL,
  	\`minimum_level\` text DEFAULT 'warning' NOT NULL,
  	\`status\` text DEFAULT 'pending' NOT NULL,
  	\`confirmed_at\` text,
  	\`quiet_hours_enabled\` integer DEFAULT false,
  	\`quiet_hours_from\` numeric,
  	\`quiet_hours_until\` numeric,
  	\`quiet_hours_time_zone\` text,
  	\`quiet_hours_digest_due_at\` text,
  	\`secret\` text NOT NULL,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`layer_id\`) REFERENCES \`map_layers\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`alert_subscriptions_subscriber_key_idx\` ON \`alert_subscriptions\` (\`subscriber_key\`);`)
  await db.run(sql`CREATE INDEX \`alert_subscriptions_layer_idx\` ON \`alert_subscriptions\` (\`layer_id\`);`)
  await db.run(sql`CREATE INDEX \`alert_subscriptions_city_idx\` ON \`alert_subscriptions\` (\`city\`);`)
  await db.run(sql`CREATE INDEX \`alert_subscriptions_status_idx\` ON \`alert_subscriptions\` (\`status\`);`)
  await db.run(sql`CREATE INDEX \`alert_subscriptions_updated_at_idx\` ON \`alert_subscriptions\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`alert_subscriptions_created_at_idx\` ON \`alert_subscriptions\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`alert_notices\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`key\` text NOT NULL,
  	\`place\` text NOT NULL,
  	\`sequence\` numeric NOT NULL,
  	\`layer_id\` integer NOT NULL,
  	\`city\` text,
  	\`feature_id\` text NOT NULL,
  	\`place_name\` text,
  	\`level\` text NOT NULL,
  	\`message\` text NOT NULL,
  	\`fired_at\` text NOT NULL,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`layer_id\`) REFERENCES \`map_layers\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`alert_notices_key_idx\` ON \`alert_notices\` (\`key\`);`)
  await db.run(sql`CREATE INDEX \`alert_notices_place_idx\` ON \`alert_notices\` (\`place\`);`)
  await db.run(sql`CREATE INDEX \`alert_notices_layer_idx\` ON \`alert_notices\` (\`layer_id\`);`)
  await db.run(sql`CREATE INDEX \`alert_notices_fired_at_idx\` ON \`alert_notices\` (\`fired_at\`);`)
  await db.run(sql`CREATE INDEX \`alert_notices_updated_at_idx\` ON \`alert_notices\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`alert_notices_created_at_idx\` ON \`alert_notices\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`held_alert_notices\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`subscription_id\` integer NOT NULL,
  	\`notice_id\` integer NOT NULL,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`subscription_id\`) REFERENCES \`alert_subscriptions\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`notice_id\`) REFERENCES \`alert_notices\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE INDEX \`held_alert_notices_subscription_idx\` ON \`held_alert_notices\` (\`subscription_id\`);`)
  await db.run(sql`CREATE INDEX \`held_alert_notices_notice_idx\` ON \`held_alert_notices\` (\`notice_id\`);`)
  await db.run(sql`CREATE INDEX \`held_alert_notices_updated_at_idx\` ON \`held_alert_notices\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`held_alert_notices_created_at_idx\` ON \`held_alert_notices\` (\`created_at\`);`)
  await db.run(sql`ALTER TABLE \`payload_locked_documents_rels\` ADD \`alert_subscriptions_id\` integer REFERENCES alert_subscriptions(id);`)
  await db.run(sql`ALTER TABLE \`payload_locked_documents_rels\` ADD \`alert_notices_id\` integer REFERENCES alert_notices(id);`)
  await db.run(sql`ALTER TABLE \`payload_locked_documents_rels\` ADD \`held_alert_notices_id\` integer REFERENCES held_alert_notices(id);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_alert_subscriptions_id_idx\` ON \`payload_locked_documents_rels\` (\`alert_subscriptions_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_alert_notices_id_idx\` ON \`payload_locked_documents_rels\` (\`alert_notices_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_held_alert_notices_id_idx\` ON \`payload_locked_documents_rels\` (\`held_alert_notices_id\`);`)
  await db.run(sql`ALTER TABLE \`site_settings\` ADD \`alert_notices_period_minutes\` numeric DEFAULT 60 NOT NULL;`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`alert_subscriptions\`;`)
  await db.run(sql`DROP TABLE \`alert_notices\`;`)
  await db.run(sql`DROP TABLE \`held_alert_notices\`;`)
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
  	FOREIGN KEY (\`search_id\`) REFERENCES \`search\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`redirects_id\`) REFERENCES \`redirects\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`INSERT INTO \`__new_payload_locked_documents_rels\`("id", "order", "parent_id", "path", "pages_id", "posts_id", "media_id", "categories_id", "map_layers_id", "users_id", "ai_drafts_id", "questions_id", "search_id", "redirects_id") SELECT "id", "order", "parent_id", "path", "pages_id", "posts_id", "media_id", "categories_id", "map_layers_id", "users_id", "ai_drafts_id", "questions_id", "search_id", "redirects_id" FROM \`payload_locked_documents_rels\`;`)
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
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_search_id_idx\` ON \`payload_locked_documents_rels\` (\`search_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_redirects_id_idx\` ON \`payload_locked_documents_rels\` (\`redirects_id\`);`)
  await db.run(sql`ALTER TABLE \`site_settings\` DROP COLUMN \`alert_notices_period_minutes\`;`)
}
