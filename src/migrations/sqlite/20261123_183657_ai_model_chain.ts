import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`ai_drafts_failed_models\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`model\` text NOT NULL,
  	\`reason\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`ai_drafts\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`ai_drafts_failed_models_order_idx\` ON \`ai_drafts_failed_models\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`ai_drafts_failed_models_parent_id_idx\` ON \`ai_drafts_failed_models\` (\`_parent_id\`);`)
  await db.run(sql`ALTER TABLE \`site_settings\` ADD \`ai_fallback_models\` text;`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`ai_drafts_failed_models\`;`)
  await db.run(sql`ALTER TABLE \`site_settings\` DROP COLUMN \`ai_fallback_models\`;`)
}
