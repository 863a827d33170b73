DROP INDEX `outbox_booking_kind_idx`;--> statement-breakpoint
ALTER TABLE `outbox` ADD `event` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_booking_event_idx` ON `outbox` (`booking_id`,`kind`,`channel`,`event`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `promo_claimed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Until now a code's use was counted when its booking was stored: those bookings keep theirs.
UPDATE `bookings` SET `promo_claimed` = 1 WHERE `promo_code` IS NOT NULL;
