CREATE TABLE `cabin_calendars` (
	`cabin_id` integer PRIMARY KEY NOT NULL,
	`min_nights` integer DEFAULT 1 NOT NULL,
	`ical_token` text,
	FOREIGN KEY (`cabin_id`) REFERENCES `cabins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cabin_calendars_ical_token_unique` ON `cabin_calendars` (`ical_token`);--> statement-breakpoint
CREATE TABLE `calendar_blocks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cabin_id` integer NOT NULL,
	`start` text NOT NULL,
	`end` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`cabin_id`) REFERENCES `cabins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `blocks_cabin_idx` ON `calendar_blocks` (`cabin_id`,`start`);--> statement-breakpoint
CREATE TABLE `calendar_feeds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cabin_id` integer NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`last_sync_at` text,
	`last_success_at` text,
	`last_error` text,
	`event_count` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`cabin_id`) REFERENCES `cabins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `feed_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`feed_id` integer NOT NULL,
	`cabin_id` integer NOT NULL,
	`uid` text NOT NULL,
	`start` text NOT NULL,
	`end` text NOT NULL,
	FOREIGN KEY (`feed_id`) REFERENCES `calendar_feeds`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`cabin_id`) REFERENCES `cabins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `feed_events_cabin_idx` ON `feed_events` (`cabin_id`,`start`);--> statement-breakpoint
CREATE TABLE `seasons` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cabin_id` integer NOT NULL,
	`start` text NOT NULL,
	`end` text NOT NULL,
	`price_per_night` integer NOT NULL,
	`min_nights` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`cabin_id`) REFERENCES `cabins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `seasons_cabin_idx` ON `seasons` (`cabin_id`,`start`);