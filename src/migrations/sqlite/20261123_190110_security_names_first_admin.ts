import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`PRAGMA foreign_keys=OFF;`)
  await db.run(sql`CREATE TABLE \`__new_map_layers_source_filters\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`attribute\` text NOT NULL,
  	\`operator\` text DEFAULT 'eq' NOT NULL,
  	\`value\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`map_layers\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`INSERT INTO \`__new_map_layers_source_filters\`("_order", "_parent_id", "id", "attribute", "operator", "value") SELECT "_order", "_parent_id", "id", "attribute", "operator", "value" FROM \`map_layers_source_filters\`;`)
  await db.run(sql`DROP TABLE \`map_layers_source_filters\`;`)
  await db.run(sql`ALTER TABLE \`__new_map_layers_source_filters\` RENAME TO \`map_layers_source_filters\`;`)
  await db.run(sql`PRAGMA foreign_keys=ON;`)
  await db.run(sql`CREATE INDEX \`map_layers_source_filters_order_idx\` ON \`map_layers_source_filters\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`map_layers_source_filters_parent_id_idx\` ON \`map_layers_source_filters\` (\`_parent_id\`);`)
  // --- Hand-written data: operators stored by name (GraphQL enum names), keep when regenerating ---
  await db.run(sql`UPDATE \`map_layers_source_filters\` SET "operator" = CASE "operator" WHEN '==' THEN 'eq' WHEN '!=' THEN 'ne' WHEN '>' THEN 'gt' WHEN '>=' THEN 'gte' WHEN '<' THEN 'lt' WHEN '<=' THEN 'lte' ELSE "operator" END;`)
  await db.run(sql`UPDATE \`map_layers_alert_rules\` SET "operator" = CASE "operator" WHEN '==' THEN 'eq' WHEN '!=' THEN 'ne' WHEN '>' THEN 'gt' WHEN '>=' THEN 'gte' WHEN '<' THEN 'lt' WHEN '<=' THEN 'lte' ELSE "operator" END;`)
  // --- end of hand-written data ---
  await db.run(sql`ALTER TABLE \`users\` ADD \`first_admin_claim\` text;`)
  await db.run(sql`CREATE UNIQUE INDEX \`users_first_admin_claim_idx\` ON \`users\` (\`first_admin_claim\`);`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP INDEX \`users_first_admin_claim_idx\`;`)
  await db.run(sql`ALTER TABLE \`users\` DROP COLUMN \`first_admin_claim\`;`)
  // --- Hand-written data: operators back to their symbols, keep when regenerating ---
  await db.run(sql`UPDATE \`map_layers_source_filters\` SET "operator" = CASE "operator" WHEN 'eq' THEN '==' WHEN 'ne' THEN '!=' WHEN 'gt' THEN '>' WHEN 'gte' THEN '>=' WHEN 'lt' THEN '<' WHEN 'lte' THEN '<=' ELSE "operator" END;`)
  await db.run(sql`UPDATE \`map_layers_alert_rules\` SET "operator" = CASE "operator" WHEN 'eq' THEN '==' WHEN 'ne' THEN '!=' WHEN 'gt' THEN '>' WHEN 'gte' THEN '>=' WHEN 'lt' THEN '<' WHEN 'lte' THEN '<=' ELSE "operator" END;`)
  // --- end of hand-written data ---
  await db.run(sql`PRAGMA foreign_keys=OFF;`)
  await db.run(sql`CREATE TABLE \`__new_map_layers_source_filters\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`attribute\` text NOT NULL,
  	\`operator\` text DEFAULT '==' NOT NULL,
  	\`value\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`map_layers\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`INSERT INTO \`__new_map_layers_source_filters\`("_order", "_parent_id", "id", "attribute", "operator", "value") SELECT "_order", "_parent_id", "id", "attribute", "operator", "value" FROM \`map_layers_source_filters\`;`)
  await db.run(sql`DROP TABLE \`map_layers_source_filters\`;`)
  await db.run(sql`ALTER TABLE \`__new_map_layers_source_filters\` RENAME TO \`map_layers_source_filters\`;`)
  await db.run(sql`PRAGMA foreign_keys=ON;`)
  await db.run(sql`CREATE INDEX \`map_layers_source_filters_order_idx\` ON \`map_layers_source_filters\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`map_layers_source_filters_parent_id_idx\` ON \`map_layers_source_filters\` (\`_parent_id\`);`)
}
