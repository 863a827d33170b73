CREATE TABLE `avito_account` (
	`id` integer PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`client_secret` text NOT NULL,
	`user_id` integer NOT NULL,
	`access_token` text,
	`token_expires_at` integer,
	`last_error` text,
	`connected_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `channel_links` (
	`cabin_id` integer PRIMARY KEY NOT NULL,
	`avito_item_id` integer NOT NULL,
	`pushed_busy` text,
	`pushed_prices` text,
	`last_push_at` text,
	`last_pull_at` text,
	`last_error` text,
	`failures` integer DEFAULT 0 NOT NULL,
	`retry_at` integer,
	FOREIGN KEY (`cabin_id`) REFERENCES `cabins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `channel_stays` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cabin_id` integer NOT NULL,
	`channel` text NOT NULL,
	`external_id` text NOT NULL,
	`start` text NOT NULL,
	`end` text NOT NULL,
	`guests` integer DEFAULT 0 NOT NULL,
	`price` integer DEFAULT 0 NOT NULL,
	`status` text NOT NULL,
	`guest_name` text DEFAULT '' NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`cabin_id`) REFERENCES `cabins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `channel_stays_cabin_idx` ON `channel_stays` (`cabin_id`,`start`);--> statement-breakpoint
CREATE UNIQUE INDEX `channel_stays_external_idx` ON `channel_stays` (`channel`,`external_id`);--> statement-breakpoint
CREATE TABLE `conflict_alerts` (
	`key` text PRIMARY KEY NOT NULL,
	`alerted_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `cabin_calendars` ADD `export_hash` text;--> statement-breakpoint
ALTER TABLE `cabin_calendars` ADD `export_changed_at` text;--> statement-breakpoint
ALTER TABLE `calendar_feeds` ADD `etag` text;--> statement-breakpoint
ALTER TABLE `calendar_feeds` ADD `last_modified` text;--> statement-breakpoint
ALTER TABLE `calendar_feeds` ADD `alerted_error` text;--> statement-breakpoint
-- Written by hand after drizzle-kit's tables, as in 0005_data_stamp.sql: the stays read from
-- another platform's API make nights busy on public reads, so their writes renew the data stamp.
CREATE TRIGGER `data_stamp_channel_stays_insert` AFTER INSERT ON `channel_stays` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_channel_stays_update` AFTER UPDATE ON `channel_stays` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_channel_stays_delete` AFTER DELETE ON `channel_stays` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;
