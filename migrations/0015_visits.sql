CREATE TABLE `visit_counts` (
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`source` text NOT NULL,
	`path` text NOT NULL,
	`cabin_id` integer DEFAULT 0 NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`day`, `kind`, `source`, `path`, `cabin_id`)
);
--> statement-breakpoint
CREATE TABLE `visit_salt` (
	`day` text PRIMARY KEY NOT NULL,
	`salt` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `bookings` ADD `source` text;