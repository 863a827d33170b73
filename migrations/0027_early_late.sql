ALTER TABLE `bookings` ADD `early_check_in` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `late_check_out` text;--> statement-breakpoint
ALTER TABLE `extras` ADD `kind` text DEFAULT 'ordinary' NOT NULL;--> statement-breakpoint
ALTER TABLE `extras` ADD `time` text;