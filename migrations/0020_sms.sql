CREATE TABLE `sms_budget` (
	`month` text PRIMARY KEY NOT NULL,
	`cap_kop` integer NOT NULL,
	`spent_kop` integer DEFAULT 0 NOT NULL,
	`reserved_kop` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sms_spends` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`outbox_id` integer NOT NULL,
	`month` text NOT NULL,
	`amount_kop` integer NOT NULL,
	`status` text NOT NULL,
	`cost_kop` integer,
	`sms_id` text,
	`created_at` integer NOT NULL,
	`settled_at` integer
);
--> statement-breakpoint
CREATE INDEX `sms_spends_outbox_idx` ON `sms_spends` (`outbox_id`);--> statement-breakpoint
-- Written by hand after drizzle-kit's tables: a guest's SMS is copied into the booking's thread
-- (channel 'sms') by the same two triggers as a Telegram message (migrations/0016_threads.sql), so
-- «Сообщения» shows what went by SMS and its state: 'queued', 'sent', or 'failed' once given up.
CREATE TRIGGER `messages_outbox_sms_insert` AFTER INSERT ON `outbox`
WHEN NEW.`channel` = 'sms' AND NEW.`booking_id` IS NOT NULL BEGIN
	INSERT INTO `threads` (`channel`, `booking_id`, `created_at`)
		SELECT 'sms', NEW.`booking_id`, NEW.`created_at`
		WHERE NOT EXISTS (SELECT 1 FROM `threads` WHERE `channel` = 'sms' AND `booking_id` = NEW.`booking_id`);
	INSERT INTO `messages` (`thread_id`, `channel`, `direction`, `kind`, `text`, `status`, `error`, `outbox_id`, `at`, `sent_at`)
		SELECT `id`, 'sms', 'out', NEW.`kind`, NEW.`text`,
			CASE WHEN NEW.`sent_at` IS NOT NULL THEN 'sent' WHEN NEW.`given_up_at` IS NOT NULL THEN 'failed' ELSE 'queued' END,
			NEW.`last_error`, NEW.`id`, NEW.`created_at`, NEW.`sent_at`
		FROM `threads` WHERE `channel` = 'sms' AND `booking_id` = NEW.`booking_id`;
END;--> statement-breakpoint
CREATE TRIGGER `messages_outbox_sms_update` AFTER UPDATE OF `sent_at`, `given_up_at`, `last_error` ON `outbox`
WHEN NEW.`channel` = 'sms' AND NEW.`booking_id` IS NOT NULL BEGIN
	UPDATE `messages` SET
		`status` = CASE WHEN NEW.`sent_at` IS NOT NULL THEN 'sent' WHEN NEW.`given_up_at` IS NOT NULL THEN 'failed' ELSE 'queued' END,
		`error` = CASE WHEN NEW.`sent_at` IS NOT NULL THEN NULL ELSE NEW.`last_error` END,
		`sent_at` = NEW.`sent_at`
	WHERE `outbox_id` = NEW.`id`;
END;
