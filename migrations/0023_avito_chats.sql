ALTER TABLE `avito_account` ADD `chats_refused` text;--> statement-breakpoint
ALTER TABLE `avito_account` ADD `chats_error` text;--> statement-breakpoint
ALTER TABLE `avito_account` ADD `chats_failures` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `avito_account` ADD `chats_retry_at` integer;--> statement-breakpoint
ALTER TABLE `avito_account` ADD `hook_secret` text;--> statement-breakpoint
ALTER TABLE `avito_account` ADD `hook_url` text;--> statement-breakpoint
ALTER TABLE `threads` ADD `platform_chat_id` text;--> statement-breakpoint
ALTER TABLE `threads` ADD `cabin_id` integer REFERENCES cabins(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `threads` ADD `platform_booking_id` text;--> statement-breakpoint
ALTER TABLE `threads` ADD `chat_updated` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `threads_platform_chat_idx` ON `threads` (`channel`,`platform_chat_id`);--> statement-breakpoint
-- Written by hand after drizzle-kit's changes: what the outbox keeps for an Avito chat (the
-- owner's answers and the automatic answer; `recipient` is the chat's id) is copied into the chat's
-- thread in the same statement, and its state follows the outbox row's, as the Telegram triggers of
-- 0016_threads.sql do for a booking's Telegram chat.
CREATE TRIGGER `messages_avito_outbox_insert` AFTER INSERT ON `outbox`
WHEN NEW.`channel` = 'avito' BEGIN
	INSERT INTO `messages` (`thread_id`, `channel`, `direction`, `kind`, `text`, `status`, `error`, `outbox_id`, `at`, `sent_at`)
		SELECT `id`, 'avito', 'out', NEW.`kind`, NEW.`text`,
			CASE WHEN NEW.`sent_at` IS NOT NULL THEN 'sent' WHEN NEW.`given_up_at` IS NOT NULL THEN 'failed' ELSE 'queued' END,
			NEW.`last_error`, NEW.`id`, NEW.`created_at`, NEW.`sent_at`
		FROM `threads` WHERE `channel` = 'avito' AND `platform_chat_id` = NEW.`recipient`;
END;--> statement-breakpoint
CREATE TRIGGER `messages_avito_outbox_update` AFTER UPDATE OF `sent_at`, `given_up_at`, `last_error` ON `outbox`
WHEN NEW.`channel` = 'avito' BEGIN
	UPDATE `messages` SET
		`status` = CASE WHEN NEW.`sent_at` IS NOT NULL THEN 'sent' WHEN NEW.`given_up_at` IS NOT NULL THEN 'failed' ELSE 'queued' END,
		`error` = CASE WHEN NEW.`sent_at` IS NOT NULL THEN NULL ELSE NEW.`last_error` END,
		`sent_at` = NEW.`sent_at`
	WHERE `outbox_id` = NEW.`id`;
END;
