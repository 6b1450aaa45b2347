-- Ulid-Flake helper functions for MySQL and MariaDB: read the BIGINT IDs as the API shows them.
--
--   ulid_flake_to_text(id BIGINT) -> CHAR(13)             '00CMXB6TAK4SA'
--   ulid_flake_from_text(text_id LONGTEXT) -> BIGINT      upper- or lower-case accepted
--   ulid_flake_to_timestamp(id BIGINT, epoch_ms BIGINT) -> DATETIME(3), in UTC
--                                                         (the default epoch is 1704067200000)
--
-- They follow the Rust codec exactly: 13 Crockford Base32 characters, no aliases (I, L, O, U),
-- a first character 0-7; bad input raises SQLSTATE 22003 or 22018 with a message that says what
-- was expected and found. Comparisons are binary, so no collation folds a non-ASCII character
-- into a digit.
--
-- Installed by the Rust adapters as one multi-statement query. With the command-line client,
-- give it a delimiter no statement holds, so that it does not cut the bodies at their ';':
--   (cat FILE; echo '$$') | mariadb --delimiter='$$' DATABASE

DROP FUNCTION IF EXISTS ulid_flake_to_text;
CREATE FUNCTION ulid_flake_to_text(id BIGINT) RETURNS CHAR(13) CHARACTER SET ascii
    DETERMINISTIC NO SQL
BEGIN
    DECLARE alphabet CHAR(32) CHARACTER SET ascii DEFAULT '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    DECLARE digits VARCHAR(13) CHARACTER SET ascii DEFAULT '';
    DECLARE rest BIGINT UNSIGNED;
    DECLARE i INT DEFAULT 0;
    DECLARE message VARCHAR(128);
    IF id IS NULL THEN
        RETURN NULL;
    END IF;
    IF id < 0 THEN
        SET message = CONCAT('value out of range: expected 0..=9223372036854775807, found ', id);
        SIGNAL SQLSTATE '22003' SET MESSAGE_TEXT = message;
    END IF;
    SET rest = id;
    WHILE i < 13 DO
        SET digits = CONCAT(SUBSTRING(alphabet, (rest & 31) + 1, 1), digits);
        SET rest = rest >> 5;
        SET i = i + 1;
    END WHILE;
    RETURN digits;
END;

DROP FUNCTION IF EXISTS ulid_flake_from_text;
-- LONGTEXT, not VARCHAR(255) or TEXT (64 KiB): a long input is reported with its length, not
-- cut or refused.
CREATE FUNCTION ulid_flake_from_text(text_id LONGTEXT) RETURNS BIGINT
    DETERMINISTIC NO SQL
BEGIN
    DECLARE alphabet VARBINARY(64)
        DEFAULT '0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz';
    DECLARE result BIGINT UNSIGNED DEFAULT 0;
    DECLARE digit INT;
    DECLARE first INT;
    DECLARE i INT DEFAULT 1;
    DECLARE message VARCHAR(255);
    IF text_id IS NULL THEN
        RETURN NULL;
    END IF;
    IF LENGTH(text_id) <> 13 THEN
        SET message = CONCAT('invalid length: expected 13 ASCII characters, found ', LENGTH(text_id),
            IF(LENGTH(text_id) = 1, ' byte', ' bytes'));
        SIGNAL SQLSTATE '22018' SET MESSAGE_TEXT = message;
    END IF;
    WHILE i <= CHAR_LENGTH(text_id) DO
        SET digit = MOD(LOCATE(CAST(SUBSTRING(text_id, i, 1) AS BINARY), alphabet) - 1, 32);
        IF digit < 0 THEN
            SET message = CONCAT('invalid character ', QUOTE(SUBSTRING(text_id, i, 1)),
                ' at index ', i - 1,
                ': expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)');
            SIGNAL SQLSTATE '22018' SET MESSAGE_TEXT = message;
        END IF;
        -- The range is checked after every character, as the Rust codec checks it; until
        -- then the first digit's low 3 bits keep the sum within 2^63 - 1.
        IF i = 1 THEN
            SET first = digit;
            SET digit = digit & 7;
        END IF;
        SET result = result * 32 + digit;
        SET i = i + 1;
    END WHILE;
    IF first > 7 THEN
        SET message = CONCAT('value out of range: expected a first character 0-7, found ',
            QUOTE(SUBSTRING(text_id, 1, 1)));
        SIGNAL SQLSTATE '22003' SET MESSAGE_TEXT = message;
    END IF;
    RETURN result;
END;

DROP FUNCTION IF EXISTS ulid_flake_to_timestamp;
CREATE FUNCTION ulid_flake_to_timestamp(id BIGINT, epoch_ms BIGINT) RETURNS DATETIME(3)
    DETERMINISTIC NO SQL
BEGIN
    DECLARE message VARCHAR(128);
    -- A negative BIGINT is no ID: MariaDB's shift, unsigned, would make it a date in 2581.
    IF id < 0 THEN
        SET message = CONCAT('value out of range: expected 0..=9223372036854775807, found ', id);
        SIGNAL SQLSTATE '22003' SET MESSAGE_TEXT = message;
    END IF;
    -- From a UTC literal, not FROM_UNIXTIME, which answers in the session's time zone.
    RETURN TIMESTAMPADD(MICROSECOND, (epoch_ms + (id >> 20)) * 1000, TIMESTAMP '1970-01-01 00:00:00');
END;
