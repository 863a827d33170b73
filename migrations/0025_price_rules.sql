ALTER TABLE `bookings` ADD `children_ages` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `pets` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `cabins` ADD `children` text DEFAULT '{"freeUnderAge":0,"sharePercentUntilAge":0,"sharePercent":0}' NOT NULL;--> statement-breakpoint
ALTER TABLE `cabins` ADD `pets` text DEFAULT '{"allowed":false,"fee":0,"per":"stay"}' NOT NULL;--> statement-breakpoint
ALTER TABLE `seasons` ADD `closed_to_arrival` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `seasons` ADD `closed_to_departure` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `seasons` ADD `max_nights` integer;