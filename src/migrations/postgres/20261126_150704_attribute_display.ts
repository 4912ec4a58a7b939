import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TYPE "public"."enum_map_layers_attribute_display_format" AS ENUM('number', 'percent', 'integer', 'text');
  CREATE TABLE "map_layers_attribute_display_value_labels" (
  	"_order" integer NOT NULL,
  	"_parent_id" varchar NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"value" varchar NOT NULL
  );
  
  CREATE TABLE "map_layers_attribute_display_value_labels_locales" (
  	"label" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  CREATE TABLE "map_layers_attribute_display" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"attribute" varchar NOT NULL,
  	"unit" varchar,
  	"format" "enum_map_layers_attribute_display_format" DEFAULT 'number' NOT NULL,
  	"decimals" numeric
  );
  
  CREATE TABLE "map_layers_attribute_display_locales" (
  	"label" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" varchar NOT NULL
  );
  
  ALTER TABLE "map_layers_attribute_display_value_labels" ADD CONSTRAINT "map_layers_attribute_display_value_labels_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."map_layers_attribute_display"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "map_layers_attribute_display_value_labels_locales" ADD CONSTRAINT "map_layers_attribute_display_value_labels_locales_parent__fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."map_layers_attribute_display_value_labels"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "map_layers_attribute_display" ADD CONSTRAINT "map_layers_attribute_display_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."map_layers"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "map_layers_attribute_display_locales" ADD CONSTRAINT "map_layers_attribute_display_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."map_layers_attribute_display"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "map_layers_attribute_display_value_labels_order_idx" ON "map_layers_attribute_display_value_labels" USING btree ("_order");
  CREATE INDEX "map_layers_attribute_display_value_labels_parent_id_idx" ON "map_layers_attribute_display_value_labels" USING btree ("_parent_id");
  CREATE UNIQUE INDEX "map_layers_attribute_display_value_labels_locales_locale_par" ON "map_layers_attribute_display_value_labels_locales" USING btree ("_locale","_parent_id");
  CREATE INDEX "map_layers_attribute_display_order_idx" ON "map_layers_attribute_display" USING btree ("_order");
  CREATE INDEX "map_layers_attribute_display_parent_id_idx" ON "map_layers_attribute_display" USING btree ("_parent_id");
  CREATE UNIQUE INDEX "map_layers_attribute_display_locales_locale_parent_id_unique" ON "map_layers_attribute_display_locales" USING btree ("_locale","_parent_id");`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   DROP TABLE "map_layers_attribute_display_value_labels" CASCADE;
  DROP TABLE "map_layers_attribute_display_value_labels_locales" CASCADE;
  DROP TABLE "map_layers_attribute_display" CASCADE;
  DROP TABLE "map_layers_attribute_display_locales" CASCADE;
  DROP TYPE "public"."enum_map_layers_attribute_display_format";`)
}
