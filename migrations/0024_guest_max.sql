CREATE TABLE `guest_max_chats` (
	`booking_id` integer PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`consent` text NOT NULL,
	`linked_at` integer NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `guest_max_chats_user_idx` ON `guest_max_chats` (`user_id`);--> statement-breakpoint
CREATE TABLE `max_updates` (
	`key` text PRIMARY KEY NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `guest_link_codes` ADD `channel` text DEFAULT 'telegram' NOT NULL;--> statement-breakpoint
-- Written by hand after drizzle-kit's tables: a guest's MAX message (an automatic one or the owner's
-- answer; channel 'max' with a booking, never the owner's own MAX alerts, which have none) is copied
-- into the booking's thread by the same two triggers as a Telegram message (migrations/0016_threads.sql).
CREATE TRIGGER `messages_outbox_max_insert` AFTER INSERT ON `outbox`
WHEN NEW.`channel` = 'max' AND NEW.`booking_id` IS NOT NULL BEGIN
	INSERT INTO `threads` (`channel`, `booking_id`, `created_at`)
		SELECT 'max', NEW.`booking_id`, NEW.`created_at`
		WHERE NOT EXISTS (SELECT 1 FROM `threads` WHERE `channel` = 'max' AND `booking_id` = NEW.`booking_id`);
	INSERT INTO `messages` (`thread_id`, `channel`, `direction`, `kind`, `text`, `status`, `error`, `outbox_id`, `at`, `sent_at`)
		SELECT `id`, 'max', 'out', NEW.`kind`, NEW.`text`,
			CASE WHEN NEW.`sent_at` IS NOT NULL THEN 'sent' WHEN NEW.`given_up_at` IS NOT NULL THEN 'failed' ELSE 'queued' END,
			NEW.`last_error`, NEW.`id`, NEW.`created_at`, NEW.`sent_at`
		FROM `threads` WHERE `channel` = 'max' AND `booking_id` = NEW.`booking_id`;
END;--> statement-breakpoint
CREATE TRIGGER `messages_outbox_max_update` AFTER UPDATE OF `sent_at`, `given_up_at`, `last_error` ON `outbox`
WHEN NEW.`channel` = 'max' AND NEW.`booking_id` IS NOT NULL BEGIN
	UPDATE `messages` SET
		`status` = CASE WHEN NEW.`sent_at` IS NOT NULL THEN 'sent' WHEN NEW.`given_up_at` IS NOT NULL THEN 'failed' ELSE 'queued' END,
		`error` = CASE WHEN NEW.`sent_at` IS NOT NULL THEN NULL ELSE NEW.`last_error` END,
		`sent_at` = NEW.`sent_at`
	WHERE `outbox_id` = NEW.`id`;
END;
