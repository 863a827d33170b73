CREATE TABLE `date_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`from_cabin_id` integer NOT NULL,
	`from_check_in` text NOT NULL,
	`from_check_out` text NOT NULL,
	`from_total` integer NOT NULL,
	`to_cabin_id` integer NOT NULL,
	`to_check_in` text NOT NULL,
	`to_check_out` text NOT NULL,
	`to_total` integer NOT NULL,
	`nights` integer NOT NULL,
	`lines` text DEFAULT '[]' NOT NULL,
	`due` integer DEFAULT 0 NOT NULL,
	`refund` integer DEFAULT 0 NOT NULL,
	`status` text NOT NULL,
	`hold_until` text,
	`payment_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `date_changes_booking_idx` ON `date_changes` (`booking_id`);--> statement-breakpoint
CREATE INDEX `date_changes_hold_idx` ON `date_changes` (`status`,`to_cabin_id`,`to_check_in`);--> statement-breakpoint
-- Written by hand: a change's hold makes nights busy on the public pages, so every write to it
-- renews the data stamp the public reads are cached by.
CREATE TRIGGER `data_stamp_date_changes_insert` AFTER INSERT ON `date_changes` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_date_changes_update` AFTER UPDATE ON `date_changes` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_date_changes_delete` AFTER DELETE ON `date_changes` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;
