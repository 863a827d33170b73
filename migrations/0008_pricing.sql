CREATE TABLE `date_prices` (
	`cabin_id` integer NOT NULL,
	`date` text NOT NULL,
	`price` integer NOT NULL,
	PRIMARY KEY(`cabin_id`, `date`),
	FOREIGN KEY (`cabin_id`) REFERENCES `cabins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `extras` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`price` integer NOT NULL,
	`per` text NOT NULL,
	`mandatory` integer DEFAULT false NOT NULL,
	`cabin_ids` text,
	`position` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `promo_codes` (
	`code` text PRIMARY KEY NOT NULL,
	`percent` integer,
	`amount` integer,
	`valid_from` text,
	`valid_to` text,
	`stay_from` text,
	`stay_to` text,
	`max_uses` integer,
	`uses` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE `bookings` ADD `promo_code` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `extras` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `cabins` ADD `weekend_price_per_night` integer;--> statement-breakpoint
ALTER TABLE `cabins` ADD `weekend_nights` text DEFAULT '[5,6]' NOT NULL;--> statement-breakpoint
ALTER TABLE `cabins` ADD `base_guests` integer;--> statement-breakpoint
ALTER TABLE `cabins` ADD `extra_guest_per_night` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `seasons` ADD `weekend_price_per_night` integer;--> statement-breakpoint
-- Written by hand after drizzle-kit's tables, as in 0005_data_stamp.sql: single dates' prices and
-- the extras are read by public reads (availability, search), so their writes renew the data stamp.
CREATE TRIGGER `data_stamp_date_prices_insert` AFTER INSERT ON `date_prices` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_date_prices_update` AFTER UPDATE ON `date_prices` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_date_prices_delete` AFTER DELETE ON `date_prices` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_extras_insert` AFTER INSERT ON `extras` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_extras_update` AFTER UPDATE ON `extras` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_extras_delete` AFTER DELETE ON `extras` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;
