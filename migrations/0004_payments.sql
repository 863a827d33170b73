CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`booking_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`status` text NOT NULL,
	`confirmation_url` text DEFAULT '' NOT NULL,
	`refund_id` text,
	`refund_status` text,
	`refund_reason` text,
	`settlement_receipt` text DEFAULT '' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `payments_booking_idx` ON `payments` (`booking_id`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `lines` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `hold_until` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `guest_token` text;