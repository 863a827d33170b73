-- Deposits held on guests' cards (ЮKassa payments with capture: false), apart from the stay's payments so
-- nothing that sums what a stay was paid counts them; and each cabin's deposit in roubles (0: none).
CREATE TABLE `deposits` (
	`id` text PRIMARY KEY NOT NULL,
	`booking_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`status` text NOT NULL,
	`confirmation_url` text DEFAULT '' NOT NULL,
	`decision` text,
	`decided_by` text,
	`kept_amount` integer,
	`reason` text,
	`error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `deposits_booking_idx` ON `deposits` (`booking_id`);--> statement-breakpoint
CREATE INDEX `deposits_status_idx` ON `deposits` (`status`,`decision`);--> statement-breakpoint
ALTER TABLE `cabins` ADD `deposit` integer DEFAULT 0 NOT NULL;