-- A deposit paid and refunded after departure, where a hold cannot be used: which kind each deposit is
-- (the ones before were all holds), and the refund that gives a paid one back.
ALTER TABLE `deposits` ADD `mode` text DEFAULT 'hold' NOT NULL;--> statement-breakpoint
ALTER TABLE `deposits` ADD `refund_id` text;--> statement-breakpoint
ALTER TABLE `deposits` ADD `refund_status` text;