import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`pages_blocks_chart\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`_path\` text NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`title\` text,
  	\`layer_id\` integer,
  	\`window\` text DEFAULT 'day',
  	\`aggregation\` text DEFAULT 'avg',
  	\`entity\` text,
  	\`city\` text,
  	\`block_name\` text,
  	FOREIGN KEY (\`layer_id\`) REFERENCES \`map_layers\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`pages\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`pages_blocks_chart_order_idx\` ON \`pages_blocks_chart\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_chart_parent_id_idx\` ON \`pages_blocks_chart\` (\`_parent_id\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_chart_path_idx\` ON \`pages_blocks_chart\` (\`_path\`);`)
  await db.run(sql`CREATE INDEX \`pages_blocks_chart_layer_idx\` ON \`pages_blocks_chart\` (\`layer_id\`);`)
  await db.run(sql`CREATE TABLE \`_pages_v_blocks_chart\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`_path\` text NOT NULL,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`title\` text,
  	\`layer_id\` integer,
  	\`window\` text DEFAULT 'day',
  	\`aggregation\` text DEFAULT 'avg',
  	\`entity\` text,
  	\`city\` text,
  	\`_uuid\` text,
  	\`block_name\` text,
  	FOREIGN KEY (\`layer_id\`) REFERENCES \`map_layers\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`_pages_v\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_chart_order_idx\` ON \`_pages_v_blocks_chart\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_chart_parent_id_idx\` ON \`_pages_v_blocks_chart\` (\`_parent_id\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_chart_path_idx\` ON \`_pages_v_blocks_chart\` (\`_path\`);`)
  await db.run(sql`CREATE INDEX \`_pages_v_blocks_chart_layer_idx\` ON \`_pages_v_blocks_chart\` (\`layer_id\`);`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`pages_blocks_chart\`;`)
  await db.run(sql`DROP TABLE \`_pages_v_blocks_chart\`;`)
}
