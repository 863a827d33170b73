-- The owner's reports: a period's stays, arrivals and their payments of every cabin, read from the index alone.
CREATE INDEX `bookings_stay_idx` ON `bookings` (`status`,`check_in`,`check_out`,`cabin_id`);--> statement-breakpoint
CREATE INDEX `bookings_arrival_idx` ON `bookings` (`check_in`,`status`,`cabin_id`,`total`,`nights`,`created_at`);--> statement-breakpoint
CREATE INDEX `payments_money_idx` ON `payments` (`booking_id`,`status`,`amount`,`refund_id`,`refund_status`,`refund_amount`);