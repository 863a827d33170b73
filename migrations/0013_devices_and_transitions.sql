-- Browsers that signed in as a person (their device cookie, a hash of its token): a sign-in from one is not held back by guesses typed at the login elsewhere.
CREATE TABLE `known_devices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` integer NOT NULL,
	`last_used_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `known_devices_token_hash_unique` ON `known_devices` (`token_hash`);--> statement-breakpoint
-- A message is kept once per event, booking and channel (a refund's message names its payment).
DROP INDEX `outbox_booking_kind_idx`;--> statement-breakpoint
ALTER TABLE `outbox` ADD `event` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_booking_event_idx` ON `outbox` (`booking_id`,`kind`,`channel`,`event`);--> statement-breakpoint
-- Whether a booking's promo code use is counted; until now it was counted when the booking was stored, so those keep theirs.
ALTER TABLE `bookings` ADD `promo_claimed` integer DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE `bookings` SET `promo_claimed` = 1 WHERE `promo_code` IS NOT NULL;
