-- Guests' messages in Telegram: a booking's chat with the consent the guest gave, the one-time link codes (their hashes), and the updates already taken (ids only).
CREATE TABLE `guest_chats` (
	`booking_id` integer PRIMARY KEY NOT NULL,
	`chat_id` text NOT NULL,
	`consent` text NOT NULL,
	`linked_at` integer NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `guest_chats_chat_idx` ON `guest_chats` (`chat_id`);--> statement-breakpoint
CREATE TABLE `guest_link_codes` (
	`code_hash` text PRIMARY KEY NOT NULL,
	`booking_id` integer NOT NULL,
	`consent` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`used_by` integer,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `guest_link_codes_expires_idx` ON `guest_link_codes` (`expires_at`);--> statement-breakpoint
CREATE TABLE `telegram_updates` (
	`bot_id` integer NOT NULL,
	`update_id` integer NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`bot_id`, `update_id`)
);
