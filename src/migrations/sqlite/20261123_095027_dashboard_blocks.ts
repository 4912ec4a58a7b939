import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`pages_blocks_map_view\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`_path\` text NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`title\` text,
  	\`city\` text,
  	\`latitude\` numeric,
  	\`longitude\` numeric,
  	\`zoom\` numeric,
  	\`height\` text DEFAULT 'medium',
  	\`legend\` integer DEFAULT true,
  	\`show_table\` integer DEFAULT false,
  	\`block_name\` text,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`pages_blocks_map_view_order_idx\` ON \`pages_blocks_map_view\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_map_view_parent_id_idx\` ON \`pages_blocks_map_view\` (\`_parent_id\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_map_view_path_idx\` ON \`pages_blocks_map_view\` (\`_path\`);`)
  await db.run(sql`CREATE TABLE \`pages_blocks_kpi_card\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`_path\` text NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`label\` text,
  	\`layer_id\` integer,
  	\`statistic\` text DEFAULT 'average',
  	\`attribute\` text,
  	\`unit\` text,
  	\`city\` text,
  	\`block_name\` text,
  	FOREIGN KEY (\`layer_id\`) REFERENCES \`map_layers\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`pages_blocks_kpi_card_order_idx\` ON \`pages_blocks_kpi_card\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_kpi_card_parent_id_idx\` ON \`pages_blocks_kpi_card\` (\`_parent_id\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_kpi_card_path_idx\` ON \`pages_blocks_kpi_card\` (\`_path\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_kpi_card_layer_idx\` ON \`pages_blocks_kpi_card\` (\`layer_id\`);`)
  await db.run(sql`CREATE TABLE \`pages_blocks_entity_table\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`_path\` text NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`title\` text,
  	\`layer_id\` integer,
  	\`page_size\` numeric DEFAULT 20,
  	\`city\` text,
  	\`block_name\` text,
  	FOREIGN KEY (\`layer_id\`) REFERENCES \`map_layers\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`pages_blocks_entity_table_order_idx\` ON \`pages_blocks_entity_table\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_entity_table_parent_id_idx\` ON \`pages_blocks_entity_table\` (\`_parent_id\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_entity_table_path_idx\` ON \`pages_blocks_entity_table\` (\`_path\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_entity_table_layer_idx\` ON \`pages_blocks_entity_table\` (\`layer_id\`);`)
  await db.run(sql`CREATE TABLE \`pages_blocks_alerts_panel\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`_path\` text NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`title\` text DEFAULT 'Alerts now',
  	\`minimum_level\` text DEFAULT 'warning',
  	\`city\` text,
  	\`block_name\` text,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`pages_blocks_alerts_panel_order_idx\` ON \`pages_blocks_alerts_panel\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_alerts_panel_parent_id_idx\` ON \`pages_blocks_alerts_panel\` (\`_parent_id\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_alerts_panel_path_idx\` ON \`pages_blocks_alerts_panel\` (\`_path\`);`)
  await db.run(sql`CREATE TABLE \`pages_texts\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`order\` integer NOT NULL,
  	\`parent_id\` integer NOT NULL,
  	\`path\` text NOT NULL,
  	\`text\` text,
  	FOREIGN KEY (\`parent_id\`) REFERENCES \`pages\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`pages_texts_order_parent\` ON \`pages_texts\` (\`order\`,\`parent_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_map_view\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`_path\` text NOT NULL,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`title\` text,
  	\`city\` text,
  	\`latitude\` numeric,
  	\`longitude\` numeric,
  	\`zoom\` numeric,
  	\`height\` text DEFAULT 'medium',
  	\`legend\` integer DEFAULT true,
  	\`show_table\` integer DEFAULT false,
  	\`_uuid\` text,
  	\`block_name\` text,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_map_view_order_idx\` ON \`_pages_v_blocks_map_view\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_map_view_parent_id_idx\` ON \`_pages_v_blocks_map_view\` (\`_parent_id\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_map_view_path_idx\` ON \`_pages_v_blocks_map_view\` (\`_path\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_kpi_card\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`_path\` text NOT NULL,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`label\` text,
  	\`layer_id\` integer,
  	\`statistic\` text DEFAULT 'average',
  	\`attribute\` text,
  	\`unit\` text,
  	\`city\` text,
  	\`_uuid\` text,
  	\`block_name\` text,
  	FOREIGN KEY (\`layer_id\`) REFERENCES \`map_layers\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_kpi_card_order_idx\` ON \`_pages_v_blocks_kpi_card\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_kpi_card_parent_id_idx\` ON \`_pages_v_blocks_kpi_card\` (\`_parent_id\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_kpi_card_path_idx\` ON \`_pages_v_blocks_kpi_card\` (\`_path\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_kpi_card_layer_idx\` ON \`_pages_v_blocks_kpi_card\` (\`layer_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_entity_table\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`_path\` text NOT NULL,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`title\` text,
  	\`layer_id\` integer,
  	\`page_size\` numeric DEFAULT 20,
  	\`city\` text,
  	\`_uuid\` text,
  	\`block_name\` text,
  	FOREIGN KEY (\`layer_id\`) REFERENCES \`map_layers\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_entity_table_order_idx\` ON \`_pages_v_blocks_entity_table\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_entity_table_parent_id_idx\` ON \`_pages_v_blocks_entity_table\` (\`_parent_id\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_entity_table_path_idx\` ON \`_pages_v_blocks_entity_table\` (\`_path\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_entity_table_layer_idx\` ON \`_pages_v_blocks_entity_table\` (\`layer_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_alerts_panel\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`_path\` text NOT NULL,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`title\` text DEFAULT 'Alerts now',
  	\`minimum_level\` text DEFAULT 'warning',
  	\`city\` text,
  	\`_uuid\` text,
  	\`block_name\` text,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_alerts_panel_order_idx\` ON \`_pages_v_blocks_alerts_panel\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_alerts_panel_parent_id_idx\` ON \`_pages_v_blocks_alerts_panel\` (\`_parent_id\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_alerts_panel_path_idx\` ON \`_pages_v_blocks_alerts_panel\` (\`_path\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_texts\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`order\` integer NOT NULL,
  	\`parent_id\` integer NOT NULL,
  	\`path\` text NOT NULL,
  	\`text\` text,
  	FOREIGN KEY (\`parent_id\`) REFERENCES \`_pages_v\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`_pages_v_texts_order_parent\` ON \`_pages_v_texts\` (\`order\`,\`parent_id\`);`)
  await db.run(sql`ALTER TABLE \`pages_rels\` ADD \`map_layers_id\` integer REFERENCES map_layers(id);`)
  await db.run(sql`CREATE INDEX \`pages_rels_map_layers_id_idx\` ON \`pages_rels\` (\`map_layers_id\`);`)
  await db.run(sql`ALTER TABLE \`_pages_v_rels\` ADD \`map_layers_id\` integer REFERENCES map_layers(id);`)
  await db.run(sql`CREATE INDEX \`_pages_v_rels_map_layers_id_idx\` ON \`_pages_v_rels\` (\`map_layers_id\`);`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`pages_blocks_map_view\`;`)
  await db.run(sql`DROP TABLE \`pages_blocks_kpi_card\`;`)
  await db.run(sql`DROP TABLE \`pages_blocks_entity_table\`;`)
  await db.run(sql`DROP TABLE \`pages_blocks_alerts_panel\`;`)
  await db.run(sql`DROP TABLE \`pages_texts\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_map_view\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_kpi_card\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_entity_table\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_alerts_panel\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_texts\`;`)
  await db.run(sql`PRAGMA foreign_keys=OFF;`)
  await db.run(sql`CREATE TABLE \`__new_pages_rels\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`order\` integer,
  	\`parent_id\` integer NOT NULL,
  	\`path\` text NOT NULL,
  	\`pages_id\` integer,
  	\`posts_id\` integer,
  	FOREIGN KEY (\`parent_id\`) REFERENCES \`pages\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`pages_id\`) REFERENCES \`pages\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`posts_id\`) REFERENCES \`posts\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`INSERT INTO \`__new_pages_rels\`("id", "order", "parent_id", "path", "pages_id", "posts_id") SELECT "id", "order", "parent_id", "path", "pages_id", "posts_id" FROM \`pages_rels\`;`)
  await db.run(sql`DROP TABLE \`pages_rels\`;`)
  await db.run(sql`ALTER TABLE \`__new_pages_rels\` RENAME TO \`pages_rels\`;`)
  await db.run(sql`PRAGMA foreign_keys=ON;`)
  await db.run(sql`CREATE INDEX \`pages_rels_order_idx\` ON \`pages_rels\` (\`order\`);`)
  await db.run(sql`CREATE INDEX \`pages_rels_parent_idx\` ON \`pages_rels\` (\`parent_id\`);`)
  await db.run(sql`CREATE INDEX \`pages_rels_path_idx\` ON \`pages_rels\` (\`path\`);`)
  await db.run(sql`CREATE INDEX \`pages_rels_pages_id_idx\` ON \`pages_rels\` (\`pages_id\`);`)
  await db.run(sql`CREATE INDEX \`pages_rels_posts_id_idx\` ON \`pages_rels\` (\`posts_id\`);`)
  await db.run(sql`CREATE TABLE \`__new__pages_v_rels\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`order\` integer,
  	\`parent_id\` integer NOT NULL,
  	\`path\` text NOT NULL,
  	\`pages_id\` integer,
  	\`posts_id\` integer,
  	FOREIGN KEY (\`parent_id\`) REFERENCES \`_pages_v\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`pages_id\`) REFERENCES \`pages\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`posts_id\`) REFERENCES \`posts\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`INSERT INTO \`__new__pages_v_rels\`("id", "order", "parent_id", "path", "pages_id", "posts_id") SELECT "id", "order", "parent_id", "path", "pages_id", "posts_id" FROM \`_pages_v_rels\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_rels\`;`)
  await db.run(sql`ALTER TABLE \`__new__pages_v_rels\` RENAME TO \`_pages_v_rels\`;`)
  await db.run(sql`CREATE INDEX \`_pages_v_rels_order_idx\` ON \`_pages_v_rels\` (\`order\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_rels_parent_idx\` ON \`_pages_v_rels\` (\`parent_id\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_rels_path_idx\` ON \`_pages_v_rels\` (\`path\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_rels_pages_id_idx\` ON \`_pages_v_rels\` (\`pages_id\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_rels_posts_id_idx\` ON \`_pages_v_rels\` (\`posts_id\`);`)
}
