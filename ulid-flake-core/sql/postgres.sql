-- Ulid-Flake helper functions for PostgreSQL: read the BIGINT IDs as the API shows them.
--
--   ulid_flake_to_text(id bigint) -> text              '00CMXB6TAK4SA'
--   ulid_flake_from_text(text_id text) -> bigint       upper- or lower-case accepted
--   ulid_flake_to_timestamp(id bigint, epoch_ms bigint DEFAULT 1704067200000) -> timestamptz
--
-- They follow the Rust codec exactly: 13 Crockford Base32 characters, no aliases (I, L, O, U),
-- a first character 0-7; bad input raises an error that says what was expected and found.
--
-- Installed by the Rust adapters; with the command-line client: psql -v ON_ERROR_STOP=1 -f FILE

CREATE OR REPLACE FUNCTION ulid_flake_to_text(id bigint) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    alphabet CONSTANT text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    digits text := '';
    rest bigint := id;
BEGIN
    IF id < 0 THEN
        RAISE EXCEPTION 'value out of range: expected 0..=9223372036854775807, found %', id
            USING ERRCODE = 'numeric_value_out_of_range';
    END IF;
    FOR i IN 1..13 LOOP
        digits := substr(alphabet, (rest & 31)::int + 1, 1) || digits;
        rest := rest >> 5;
    END LOOP;
    RETURN digits;
END
$$;

CREATE OR REPLACE FUNCTION ulid_flake_from_text(text_id text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    -- Upper- then lower-case: a digit's value is its position modulo 32. Matching the
    -- characters as they are (not upper()) keeps non-ASCII look-alikes out.
    alphabet CONSTANT text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz';
    result bigint := 0;
    digit int;
    first int;
    ch text;
BEGIN
    IF octet_length(text_id) <> 13 THEN
        RAISE EXCEPTION 'invalid length: expected 13 ASCII characters, found % byte%', octet_length(text_id),
            CASE octet_length(text_id) WHEN 1 THEN '' ELSE 's' END
            USING ERRCODE = 'invalid_text_representation';
    END IF;
    FOR i IN 1..char_length(text_id) LOOP
        ch := substr(text_id, i, 1);
        digit := (strpos(alphabet, ch) - 1) % 32;
        IF digit < 0 THEN
            RAISE EXCEPTION 'invalid character % at index %: expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)', quote_literal(ch), i - 1
                USING ERRCODE = 'invalid_text_representation';
        END IF;
        -- The range is checked after every character, as the Rust codec checks it; until
        -- then the first digit's low 3 bits keep the sum within 2^63 - 1.
        IF i = 1 THEN
            first := digit;
            digit := digit & 7;
        END IF;
        result := result * 32 + digit;
    END LOOP;
    IF first > 7 THEN
        RAISE EXCEPTION 'value out of range: expected a first character 0-7, found %',
            quote_literal(substr(text_id, 1, 1))
            USING ERRCODE = 'numeric_value_out_of_range';
    END IF;
    RETURN result;
END
$$;

CREATE OR REPLACE FUNCTION ulid_flake_to_timestamp(id bigint, epoch_ms bigint DEFAULT 1704067200000)
RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
    -- A negative BIGINT is no ID: the shift would make it a date before the epoch.
    IF id < 0 THEN
        RAISE EXCEPTION 'value out of range: expected 0..=9223372036854775807, found %', id
            USING ERRCODE = 'numeric_value_out_of_range';
    END IF;
    -- Integer milliseconds: exact, unlike to_timestamp(double precision).
    RETURN timestamptz 'epoch' + (epoch_ms + (id >> 20)) * interval '1 millisecond';
END
$$;
