-- Cleaners: the cabins each cleaner looks after, and their private sign-in links (only a hash of the token is kept).
CREATE TABLE `cleaner_cabins` (
	`user_id` integer NOT NULL,
	`cabin_id` integer NOT NULL,
	PRIMARY KEY(`user_id`, `cabin_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`cabin_id`) REFERENCES `cabins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `cleaner_cabins_cabin_idx` ON `cleaner_cabins` (`cabin_id`);--> statement-breakpoint
CREATE TABLE `sign_in_links` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sign_in_links_token_hash_unique` ON `sign_in_links` (`token_hash`);