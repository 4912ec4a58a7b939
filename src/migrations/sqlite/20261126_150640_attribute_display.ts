import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`map_layers_attribute_display_value_labels\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`value\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`map_layers_attribute_display\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`map_layers_attribute_display_value_labels_order_idx\` ON \`map_layers_attribute_display_value_labels\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`map_layers_attribute_display_value_labels_parent_id_idx\` ON \`map_layers_attribute_display_value_labels\` (\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`map_layers_attribute_display_value_labels_locales\` (
  	\`label\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`map_layers_attribute_display_value_labels\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`map_layers_attribute_display_value_labels_locales_locale_par\` ON \`map_layers_attribute_display_value_labels_locales\` (\`_locale\`,\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`map_layers_attribute_display\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`attribute\` text NOT NULL,
  	\`unit\` text,
  	\`format\` text DEFAULT 'number' NOT NULL,
  	\`decimals\` numeric,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`map_layers\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`map_layers_attribute_display_order_idx\` ON \`map_layers_attribute_display\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`map_layers_attribute_display_parent_id_idx\` ON \`map_layers_attribute_display\` (\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`map_layers_attribute_display_locales\` (
  	\`label\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`_locale\` text NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`map_layers_attribute_display\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`map_layers_attribute_display_locales_locale_parent_id_unique\` ON \`map_layers_attribute_display_locales\` (\`_locale\`,\`_parent_id\`);`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`map_layers_attribute_display_value_labels\`;`)
  await db.run(sql`DROP TABLE \`map_layers_attribute_display_value_labels_locales\`;`)
  await db.run(sql`DROP TABLE \`map_layers_attribute_display\`;`)
  await db.run(sql`DROP TABLE \`map_layers_attribute_display_locales\`;`)
}
