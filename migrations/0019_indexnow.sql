CREATE TABLE `indexnow_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`manifest` text NOT NULL,
	`pages` text NOT NULL,
	`sent_at` integer,
	`sent_urls` integer
);
