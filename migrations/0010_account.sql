CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor_id` integer,
	`actor` text NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`action` text NOT NULL,
	`kind` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`target` text,
	`outcome` text DEFAULT 'ok' NOT NULL,
	`before` text,
	`after` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`role` text NOT NULL,
	`totp_secret` text,
	`totp_pending_secret` text,
	`recovery_codes` text DEFAULT '[]' NOT NULL,
	`totp_last_step` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
-- Written by hand: the single account of admin_account becomes the owner, with its
-- login and password as they were, and admin_account keeps only the admin path.
INSERT INTO `users` (`id`, `username`, `password_hash`, `role`, `created_at`)
SELECT 1, `username`, `password_hash`, 'owner', CAST(strftime('%s', 'now') AS INTEGER) * 1000 FROM `admin_account` WHERE `id` = 1;--> statement-breakpoint
-- Sessions now belong to a person and are named by an id of their own: the old ones (30 minutes at
-- most) belong to nobody, so they end and everyone signs in again. Nothing refers to this table.
DROP TABLE `admin_sessions`;--> statement-breakpoint
CREATE TABLE `admin_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`user_agent` text DEFAULT '' NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admin_sessions_token_hash_unique` ON `admin_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `admin_sessions_user_idx` ON `admin_sessions` (`user_id`);--> statement-breakpoint
ALTER TABLE `admin_account` DROP COLUMN `username`;--> statement-breakpoint
ALTER TABLE `admin_account` DROP COLUMN `password_hash`;