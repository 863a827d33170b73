CREATE TABLE `data_stamp` (
	`id` integer PRIMARY KEY NOT NULL,
	`token` text NOT NULL
);--> statement-breakpoint
-- Written by hand after drizzle-kit's table: a new token on every write to a table that public
-- reads are made from (schema/tables.ts dataStamp). A token, not a counter, so emptying the table
-- never brings an old value back. No INSERT OR REPLACE: a trigger's statements take the conflict
-- policy of the statement that fired them, so it would fail under an upsert; nothing here can conflict.
INSERT INTO `data_stamp` (`id`, `token`) VALUES (1, lower(hex(randomblob(8))));--> statement-breakpoint
CREATE TRIGGER `data_stamp_admin_account_insert` AFTER INSERT ON `admin_account` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_admin_account_update` AFTER UPDATE ON `admin_account` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_admin_account_delete` AFTER DELETE ON `admin_account` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_bookings_insert` AFTER INSERT ON `bookings` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_bookings_update` AFTER UPDATE ON `bookings` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_bookings_delete` AFTER DELETE ON `bookings` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_cabin_calendars_insert` AFTER INSERT ON `cabin_calendars` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_cabin_calendars_update` AFTER UPDATE ON `cabin_calendars` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_cabin_calendars_delete` AFTER DELETE ON `cabin_calendars` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_cabins_insert` AFTER INSERT ON `cabins` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_cabins_update` AFTER UPDATE ON `cabins` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_cabins_delete` AFTER DELETE ON `cabins` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_calendar_blocks_insert` AFTER INSERT ON `calendar_blocks` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_calendar_blocks_update` AFTER UPDATE ON `calendar_blocks` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_calendar_blocks_delete` AFTER DELETE ON `calendar_blocks` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_calendar_feeds_insert` AFTER INSERT ON `calendar_feeds` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_calendar_feeds_update` AFTER UPDATE ON `calendar_feeds` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_calendar_feeds_delete` AFTER DELETE ON `calendar_feeds` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_feed_events_insert` AFTER INSERT ON `feed_events` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_feed_events_update` AFTER UPDATE ON `feed_events` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_feed_events_delete` AFTER DELETE ON `feed_events` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_payments_insert` AFTER INSERT ON `payments` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_payments_update` AFTER UPDATE ON `payments` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_payments_delete` AFTER DELETE ON `payments` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_reviews_insert` AFTER INSERT ON `reviews` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_reviews_update` AFTER UPDATE ON `reviews` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_reviews_delete` AFTER DELETE ON `reviews` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_seasons_insert` AFTER INSERT ON `seasons` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_seasons_update` AFTER UPDATE ON `seasons` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_seasons_delete` AFTER DELETE ON `seasons` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_settings_insert` AFTER INSERT ON `settings` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_settings_update` AFTER UPDATE ON `settings` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_settings_delete` AFTER DELETE ON `settings` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_site_state_insert` AFTER INSERT ON `site_state` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_site_state_update` AFTER UPDATE ON `site_state` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_site_state_delete` AFTER DELETE ON `site_state` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;
