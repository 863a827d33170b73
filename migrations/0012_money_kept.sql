-- Records of money are kept for the tax office: a payment's booking loses its ON DELETE CASCADE,
-- so the database refuses to delete a booking that has a payment. SQLite cannot change a foreign
-- key in place: drizzle-kit's copy of the table, every row and index kept. Its PRAGMA
-- foreign_keys lines are taken out: both runtimes apply a file in one transaction, where the
-- pragma does nothing (and D1 keeps the keys on anyway); the copy needs no pause in the checks,
-- since every payment's booking exists (the cascade saw to that). Nothing references payments,
-- so dropping the old table touches no other row; bookings itself is not copied, as dropping it
-- would fire its children's cascades.
CREATE TABLE `__new_payments` (
	`id` text PRIMARY KEY NOT NULL,
	`booking_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`status` text NOT NULL,
	`confirmation_url` text DEFAULT '' NOT NULL,
	`refund_id` text,
	`refund_status` text,
	`refund_reason` text,
	`refund_amount` integer,
	`kind` text DEFAULT 'prepayment' NOT NULL,
	`settlement_receipt` text DEFAULT '' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_payments`("id", "booking_id", "amount", "status", "confirmation_url", "refund_id", "refund_status", "refund_reason", "refund_amount", "kind", "settlement_receipt", "created_at", "updated_at") SELECT "id", "booking_id", "amount", "status", "confirmation_url", "refund_id", "refund_status", "refund_reason", "refund_amount", "kind", "settlement_receipt", "created_at", "updated_at" FROM `payments`;--> statement-breakpoint
DROP TABLE `payments`;--> statement-breakpoint
ALTER TABLE `__new_payments` RENAME TO `payments`;--> statement-breakpoint
CREATE INDEX `payments_booking_idx` ON `payments` (`booking_id`);--> statement-breakpoint
CREATE INDEX `payments_money_idx` ON `payments` (`booking_id`,`status`,`amount`,`refund_id`,`refund_status`,`refund_amount`);--> statement-breakpoint
-- Written by hand: the old table's data-stamp triggers (0005_data_stamp.sql) went with it.
CREATE TRIGGER `data_stamp_payments_insert` AFTER INSERT ON `payments` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_payments_update` AFTER UPDATE ON `payments` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
CREATE TRIGGER `data_stamp_payments_delete` AFTER DELETE ON `payments` BEGIN
	UPDATE `data_stamp` SET `token` = lower(hex(randomblob(8))) WHERE `id` = 1;
	INSERT INTO `data_stamp` (`id`, `token`) SELECT 1, lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `data_stamp`);
END;--> statement-breakpoint
-- Written by hand: a cabin that has bookings is never deleted (its bookings, and through them
-- their payments, would go with it by the cascade); the owner makes it inactive instead. The API
-- refuses first with a Russian message; this stops every other path: a script, SQL typed by hand.
CREATE TRIGGER `cabins_keep_bookings` BEFORE DELETE ON `cabins`
WHEN EXISTS (SELECT 1 FROM `bookings` WHERE `cabin_id` = OLD.`id`) BEGIN
	SELECT RAISE(ABORT, 'cabin has bookings: make it inactive instead of deleting it');
END;
