-- Browsers that signed in as a person (their device cookie, a hash of its token): a sign-in from one is not held back by guesses typed at the login elsewhere.
CREATE TABLE `known_devices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` integer NOT NULL,
	`last_used_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `known_devices_token_hash_unique` ON `known_devices` (`token_hash`);