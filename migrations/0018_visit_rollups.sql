CREATE TABLE `visit_cabins` (
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`cabin_id` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`day`, `kind`, `cabin_id`)
);
--> statement-breakpoint
CREATE TABLE `visit_sources` (
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`source` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`day`, `kind`, `source`)
);
--> statement-breakpoint
-- Written by hand: the rollups move with every write to visit_counts, in the same statement. Each
-- count goes to its day's row and to its month's row ('m' and the month: 'm2025-07', which sorts
-- after every day), so a long period reads its whole months from a few rows.
INSERT INTO `visit_sources` (`day`, `kind`, `source`, `count`)
SELECT `day`, `kind`, `source`, sum(`count`) FROM `visit_counts` GROUP BY `day`, `kind`, `source`
UNION ALL
SELECT 'm' || substr(`day`, 1, 7), `kind`, `source`, sum(`count`) FROM `visit_counts` GROUP BY 1, `kind`, `source`;
--> statement-breakpoint
INSERT INTO `visit_cabins` (`day`, `kind`, `cabin_id`, `count`)
SELECT `day`, `kind`, `cabin_id`, sum(`count`) FROM `visit_counts` WHERE `cabin_id` > 0 GROUP BY `day`, `kind`, `cabin_id`
UNION ALL
SELECT 'm' || substr(`day`, 1, 7), `kind`, `cabin_id`, sum(`count`) FROM `visit_counts` WHERE `cabin_id` > 0 GROUP BY 1, `kind`, `cabin_id`;
--> statement-breakpoint
CREATE TRIGGER `visit_counts_rollup_insert` AFTER INSERT ON `visit_counts` BEGIN
  INSERT INTO `visit_sources` (`day`, `kind`, `source`, `count`)
    VALUES (NEW.`day`, NEW.`kind`, NEW.`source`, NEW.`count`), ('m' || substr(NEW.`day`, 1, 7), NEW.`kind`, NEW.`source`, NEW.`count`)
    ON CONFLICT (`day`, `kind`, `source`) DO UPDATE SET `count` = `count` + excluded.`count`;
  INSERT INTO `visit_cabins` (`day`, `kind`, `cabin_id`, `count`)
    SELECT d, NEW.`kind`, NEW.`cabin_id`, NEW.`count` FROM (SELECT NEW.`day` AS d UNION ALL SELECT 'm' || substr(NEW.`day`, 1, 7))
    WHERE NEW.`cabin_id` > 0
    ON CONFLICT (`day`, `kind`, `cabin_id`) DO UPDATE SET `count` = `count` + excluded.`count`;
END;
--> statement-breakpoint
CREATE TRIGGER `visit_counts_rollup_update` AFTER UPDATE ON `visit_counts` BEGIN
  UPDATE `visit_sources` SET `count` = `count` - OLD.`count`
    WHERE `day` IN (OLD.`day`, 'm' || substr(OLD.`day`, 1, 7)) AND `kind` = OLD.`kind` AND `source` = OLD.`source`;
  INSERT INTO `visit_sources` (`day`, `kind`, `source`, `count`)
    VALUES (NEW.`day`, NEW.`kind`, NEW.`source`, NEW.`count`), ('m' || substr(NEW.`day`, 1, 7), NEW.`kind`, NEW.`source`, NEW.`count`)
    ON CONFLICT (`day`, `kind`, `source`) DO UPDATE SET `count` = `count` + excluded.`count`;
  UPDATE `visit_cabins` SET `count` = `count` - OLD.`count`
    WHERE `day` IN (OLD.`day`, 'm' || substr(OLD.`day`, 1, 7)) AND `kind` = OLD.`kind` AND `cabin_id` = OLD.`cabin_id`;
  INSERT INTO `visit_cabins` (`day`, `kind`, `cabin_id`, `count`)
    SELECT d, NEW.`kind`, NEW.`cabin_id`, NEW.`count` FROM (SELECT NEW.`day` AS d UNION ALL SELECT 'm' || substr(NEW.`day`, 1, 7))
    WHERE NEW.`cabin_id` > 0
    ON CONFLICT (`day`, `kind`, `cabin_id`) DO UPDATE SET `count` = `count` + excluded.`count`;
END;
--> statement-breakpoint
CREATE TRIGGER `visit_counts_rollup_delete` AFTER DELETE ON `visit_counts` BEGIN
  UPDATE `visit_sources` SET `count` = `count` - OLD.`count`
    WHERE `day` IN (OLD.`day`, 'm' || substr(OLD.`day`, 1, 7)) AND `kind` = OLD.`kind` AND `source` = OLD.`source`;
  UPDATE `visit_cabins` SET `count` = `count` - OLD.`count`
    WHERE `day` IN (OLD.`day`, 'm' || substr(OLD.`day`, 1, 7)) AND `kind` = OLD.`kind` AND `cabin_id` = OLD.`cabin_id`;
END;
