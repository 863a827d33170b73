-- The owner's day: the tasks at each cabin (a departure's cleaning, a repair), and when a guest was marked arrived and departed (an early departure's day frees the nights after it).
CREATE TABLE `tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cabin_id` integer NOT NULL,
	`due` text NOT NULL,
	`kind` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`done` integer DEFAULT false NOT NULL,
	`done_at` text,
	`booking_id` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`cabin_id`) REFERENCES `cabins`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tasks_due_idx` ON `tasks` (`due`,`cabin_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_departure_idx` ON `tasks` (`booking_id`,`due`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `arrived_at` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `departed_at` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `departed_on` text;