ALTER TABLE `date_changes` ADD `extras` text;--> statement-breakpoint
ALTER TABLE `date_changes` ADD `early_check_in` text;--> statement-breakpoint
ALTER TABLE `date_changes` ADD `late_check_out` text;