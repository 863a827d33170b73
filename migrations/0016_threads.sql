CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`thread_id` integer NOT NULL,
	`channel` text NOT NULL,
	`direction` text NOT NULL,
	`platform_id` text,
	`kind` text,
	`text` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`outbox_id` integer,
	`at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_platform_idx` ON `messages` (`channel`,`platform_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `messages_outbox_idx` ON `messages` (`outbox_id`);--> statement-breakpoint
CREATE INDEX `messages_thread_idx` ON `messages` (`thread_id`,`id`);--> statement-breakpoint
CREATE TABLE `threads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text NOT NULL,
	`booking_id` integer,
	`guest_name` text DEFAULT '' NOT NULL,
	`read_through` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `threads_booking_idx` ON `threads` (`channel`,`booking_id`);--> statement-breakpoint
-- Written by hand after drizzle-kit's tables: whatever the outbox keeps for a guest's Telegram chat
-- (the automatic messages and the owner's answers) is copied into the booking's thread, in the same
-- statement that keeps it, and its state follows the outbox row's: 'sent' once sent, 'failed' once
-- given up, else 'queued' (with the last try's error, if any). No INSERT OR and no upsert inside:
-- a trigger's statements take the conflict policy of the statement that fired them, and nothing
-- here can conflict (the thread is made only where there is none, and each outbox row is new).
CREATE TRIGGER `messages_outbox_insert` AFTER INSERT ON `outbox`
WHEN NEW.`channel` = 'telegram' AND NEW.`booking_id` IS NOT NULL BEGIN
	INSERT INTO `threads` (`channel`, `booking_id`, `created_at`)
		SELECT 'telegram', NEW.`booking_id`, NEW.`created_at`
		WHERE NOT EXISTS (SELECT 1 FROM `threads` WHERE `channel` = 'telegram' AND `booking_id` = NEW.`booking_id`);
	INSERT INTO `messages` (`thread_id`, `channel`, `direction`, `kind`, `text`, `status`, `error`, `outbox_id`, `at`, `sent_at`)
		SELECT `id`, 'telegram', 'out', NEW.`kind`, NEW.`text`,
			CASE WHEN NEW.`sent_at` IS NOT NULL THEN 'sent' WHEN NEW.`given_up_at` IS NOT NULL THEN 'failed' ELSE 'queued' END,
			NEW.`last_error`, NEW.`id`, NEW.`created_at`, NEW.`sent_at`
		FROM `threads` WHERE `channel` = 'telegram' AND `booking_id` = NEW.`booking_id`;
END;--> statement-breakpoint
CREATE TRIGGER `messages_outbox_update` AFTER UPDATE OF `sent_at`, `given_up_at`, `last_error` ON `outbox`
WHEN NEW.`channel` = 'telegram' AND NEW.`booking_id` IS NOT NULL BEGIN
	UPDATE `messages` SET
		`status` = CASE WHEN NEW.`sent_at` IS NOT NULL THEN 'sent' WHEN NEW.`given_up_at` IS NOT NULL THEN 'failed' ELSE 'queued' END,
		`error` = CASE WHEN NEW.`sent_at` IS NOT NULL THEN NULL ELSE NEW.`last_error` END,
		`sent_at` = NEW.`sent_at`
	WHERE `outbox_id` = NEW.`id`;
END;--> statement-breakpoint
-- The guests' Telegram messages kept before this migration get their threads too.
INSERT INTO `threads` (`channel`, `booking_id`, `created_at`)
	SELECT 'telegram', `booking_id`, min(`created_at`) FROM `outbox`
	WHERE `channel` = 'telegram' AND `booking_id` IS NOT NULL GROUP BY `booking_id`;--> statement-breakpoint
INSERT INTO `messages` (`thread_id`, `channel`, `direction`, `kind`, `text`, `status`, `error`, `outbox_id`, `at`, `sent_at`)
	SELECT t.`id`, 'telegram', 'out', o.`kind`, o.`text`,
		CASE WHEN o.`sent_at` IS NOT NULL THEN 'sent' WHEN o.`given_up_at` IS NOT NULL THEN 'failed' ELSE 'queued' END,
		o.`last_error`, o.`id`, o.`created_at`, o.`sent_at`
	FROM `outbox` o JOIN `threads` t ON t.`channel` = 'telegram' AND t.`booking_id` = o.`booking_id`
	WHERE o.`channel` = 'telegram' ORDER BY o.`id`;
