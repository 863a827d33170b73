CREATE TABLE `cabin_instructions` (
	`cabin_id` integer PRIMARY KEY NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`cabin_id`) REFERENCES `cabins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `bookings` ADD `cancelled_by` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `cancelled_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_guest_token_idx` ON `bookings` (`guest_token`);--> statement-breakpoint
ALTER TABLE `outbox` ADD `booking_id` integer REFERENCES bookings(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `outbox` ADD `kind` text;--> statement-breakpoint
ALTER TABLE `outbox` ADD `recipient` text;--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_booking_kind_idx` ON `outbox` (`booking_id`,`kind`);--> statement-breakpoint
ALTER TABLE `payments` ADD `refund_amount` integer;--> statement-breakpoint
ALTER TABLE `payments` ADD `kind` text DEFAULT 'prepayment' NOT NULL;--> statement-breakpoint
ALTER TABLE `reviews` ADD `booking_id` integer;--> statement-breakpoint
ALTER TABLE `reviews` ADD `verified_stay` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_booking_idx` ON `reviews` (`booking_id`);--> statement-breakpoint
-- Written by hand: every booking gets a page for its guest, the ones stored before too,
-- with 144 random bits as newGuestToken in worker/queries/bookings.ts makes them
UPDATE `bookings` SET `guest_token` = lower(hex(randomblob(18))) WHERE `guest_token` IS NULL;
