CREATE TABLE `cleaner_chats` (
	`user_id` integer NOT NULL,
	`channel` text NOT NULL,
	`chat_id` text NOT NULL,
	`linked_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `channel`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `cleaner_link_codes` (
	`code_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`channel` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`used_by` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `cleaner_link_codes_expires_idx` ON `cleaner_link_codes` (`expires_at`);--> statement-breakpoint
CREATE INDEX `bookings_end_idx` ON `bookings` (`status`,coalesce(`departed_on`, `check_out`));--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_daily_event_idx` ON `outbox` (`kind`,`channel`,`event`) WHERE booking_id is null and kind in ('not-clean', 'cleaner-day');