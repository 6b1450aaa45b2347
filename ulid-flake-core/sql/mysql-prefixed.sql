-- Ulid-Flake helper functions for MySQL and MariaDB, for prefixed IDs: read the BIGINT IDs of an
-- entity whose API shows them with a prefix (`user_00CMXB6TAK4SA`, a Rust PrefixedId<User>). The
-- column holds the ID alone; each call names the entity's prefix.
--
--   ulid_flake_to_prefixed_text(id BIGINT, prefix TEXT) -> VARCHAR(45)     'user_00CMXB6TAK4SA'
--   ulid_flake_from_prefixed_text(text_id LONGTEXT, prefix TEXT) -> BIGINT the prefix exact, the
--                                                                          13 characters in
--                                                                          either case
--
-- They follow the Rust codec exactly, as the functions of mysql.sql (installed first, which
-- these call): the prefix must be a valid one (a lowercase ASCII letter, then up to 30
-- lowercase letters and digits); the text must start with it and `_`, case-sensitive, or it is
-- the wrong prefix, named up to its first `_`; the 13 characters after it are checked as
-- ulid_flake_from_text checks them, but a wrong length names the prefix and a bad character's
-- index counts from the start of the whole text. Bad input raises SQLSTATE 22003, 22018 or 22023.
--
-- Installed by the Rust adapters as one multi-statement query. With the command-line client,
-- give it a delimiter no statement holds, so that it does not cut the bodies at their ';':
--   (cat FILE; echo '$$') | mariadb --delimiter='$$' DATABASE

-- Raises the error for a prefix no Rust Prefix may have. Called by the two functions below.
DROP PROCEDURE IF EXISTS ulid_flake_check_prefix;
CREATE PROCEDURE ulid_flake_check_prefix(prefix TEXT)
    DETERMINISTIC NO SQL
BEGIN
    DECLARE message TEXT;
    -- Bytes, not characters: no collation folds another letter into a-z. The whole prefix
    -- must be the match (a `$` would also match before a final newline).
    IF prefix IS NULL
        OR LENGTH(prefix) > 31
        OR IFNULL(REGEXP_SUBSTR(CAST(prefix AS BINARY), '^[a-z][a-z0-9]*'), '') <> CAST(prefix AS BINARY)
        OR prefix = '' THEN
        SET message = CONCAT('invalid prefix: expected a lowercase ASCII letter, then up to 30 lowercase letters and digits, found ',
            QUOTE(prefix));
        SIGNAL SQLSTATE '22023' SET MESSAGE_TEXT = message;
    END IF;
END;

DROP FUNCTION IF EXISTS ulid_flake_to_prefixed_text;
CREATE FUNCTION ulid_flake_to_prefixed_text(id BIGINT, prefix TEXT) RETURNS VARCHAR(45) CHARACTER SET ascii
    DETERMINISTIC NO SQL
BEGIN
    IF id IS NULL OR prefix IS NULL THEN
        RETURN NULL;
    END IF;
    CALL ulid_flake_check_prefix(prefix);
    RETURN CONCAT(prefix, '_', ulid_flake_to_text(id));
END;

DROP FUNCTION IF EXISTS ulid_flake_from_prefixed_text;
-- LONGTEXT, as ulid_flake_from_text takes: a long input is reported, not cut.
CREATE FUNCTION ulid_flake_from_prefixed_text(text_id LONGTEXT, prefix TEXT) RETURNS BIGINT
    DETERMINISTIC NO SQL
BEGIN
    DECLARE found LONGTEXT;
    DECLARE rest LONGTEXT;
    DECLARE bad INT;
    DECLARE message TEXT;
    IF text_id IS NULL OR prefix IS NULL THEN
        RETURN NULL;
    END IF;
    CALL ulid_flake_check_prefix(prefix);
    -- Byte for byte: no collation may call another spelling equal.
    IF CAST(LEFT(text_id, CHAR_LENGTH(prefix) + 1) AS BINARY) <> CAST(CONCAT(prefix, '_') AS BINARY) THEN
        -- The prefix found runs up to and including the first `_`, as the codec reads it (in
        -- characters: LOCATE's position in a binary comparison counts bytes).
        IF LOCATE(BINARY '_', text_id) = 0 THEN
            SET message = CONCAT('wrong prefix: expected `', prefix, '_`, found none (no `_` in the text)');
        ELSE
            SET found = CONCAT(SUBSTRING_INDEX(text_id, BINARY '_', 1), '_');
            -- The codec keeps 16 bytes of it and counts the rest up to 65535.
            SET message = CONCAT('wrong prefix: expected `', prefix, '_`, found `', CASE
                WHEN LENGTH(found) >= 65535 THEN CONCAT(LEFT(found, 16), '…` (65535 bytes or more)')
                WHEN LENGTH(found) > 16 THEN CONCAT(LEFT(found, 16), '…` (', LENGTH(found), ' bytes)')
                ELSE CONCAT(found, '`')
            END);
        END IF;
        SIGNAL SQLSTATE '22018' SET MESSAGE_TEXT = message;
    END IF;
    SET rest = SUBSTRING(text_id, CHAR_LENGTH(prefix) + 2);
    -- The length of the rest, then a bad character of the 13, at its index in the whole text
    -- (the bytes before it are ASCII: its position in bytes is its position in characters);
    -- ulid_flake_from_text reports the range.
    IF LENGTH(rest) <> 13 THEN
        SET message = CONCAT('invalid length: expected 13 ASCII characters after `', prefix, '_`, found ',
            LENGTH(rest), IF(LENGTH(rest) = 1, ' byte', ' bytes'));
        SIGNAL SQLSTATE '22018' SET MESSAGE_TEXT = message;
    ELSE
        SET bad = REGEXP_INSTR(CAST(rest AS BINARY), '[^0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz]');
        IF bad > 0 THEN
            SET message = CONCAT('invalid character ', QUOTE(SUBSTRING(rest, bad, 1)),
                ' at index ', CHAR_LENGTH(prefix) + bad,
                ': expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)');
            SIGNAL SQLSTATE '22018' SET MESSAGE_TEXT = message;
        END IF;
    END IF;
    RETURN ulid_flake_from_text(rest);
END;
