-- Ulid-Flake helper functions for PostgreSQL, for prefixed IDs: read the BIGINT IDs of an entity
-- whose API shows them with a prefix (`user_00CMXB6TAK4SA`, a Rust PrefixedId<User>). The column
-- holds the ID alone; each call names the entity's prefix.
--
--   ulid_flake_to_prefixed_text(id bigint, prefix text) -> text           'user_00CMXB6TAK4SA'
--   ulid_flake_from_prefixed_text(text_id text, prefix text) -> bigint    the prefix exact, the
--                                                                         13 characters in
--                                                                         either case
--
-- They follow the Rust codec exactly, as the functions of postgres.sql (installed first, which
-- these call): the prefix must be a valid one (a lowercase ASCII letter, then up to 30
-- lowercase letters and digits); the text must start with it and `_`, case-sensitive, or it is
-- the wrong prefix, named up to its first `_`; the 13 characters after it are checked as
-- ulid_flake_from_text checks them, but a wrong length names the prefix and a bad character's
-- index counts from the start of the whole text.
--
-- Installed by the Rust adapters; with the command-line client: psql -v ON_ERROR_STOP=1 -f FILE

-- Raises the error for a prefix no Rust Prefix may have. Called by the two functions below.
CREATE OR REPLACE FUNCTION ulid_flake_check_prefix(prefix text) RETURNS void
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
    -- Spelled out, not as ranges, and under the C collation: no collation widens them.
    IF prefix COLLATE "C" !~ '^[abcdefghijklmnopqrstuvwxyz][abcdefghijklmnopqrstuvwxyz0123456789]{0,30}$' THEN
        RAISE EXCEPTION 'invalid prefix: expected a lowercase ASCII letter, then up to 30 lowercase letters and digits, found %',
            quote_literal(prefix)
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
END
$$;

CREATE OR REPLACE FUNCTION ulid_flake_to_prefixed_text(id bigint, prefix text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
    PERFORM ulid_flake_check_prefix(prefix);
    RETURN prefix || '_' || ulid_flake_to_text(id);
END
$$;

CREATE OR REPLACE FUNCTION ulid_flake_from_prefixed_text(text_id text, prefix text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    found text;
    rest text;
    bad text[];
    cut text;
BEGIN
    PERFORM ulid_flake_check_prefix(prefix);
    -- Byte for byte, under the C collation: no collation may call another spelling equal, in
    -- any database encoding.
    IF substr(text_id, 1, length(prefix) + 1) COLLATE "C" <> prefix || '_' THEN
        -- The prefix found runs up to and including the first `_`, as the codec reads it.
        found := substr(text_id, 1, strpos(text_id COLLATE "C", '_'));
        IF found = '' THEN
            RAISE EXCEPTION 'wrong prefix: expected `%_`, found none (no `_` in the text)', prefix
                USING ERRCODE = 'invalid_text_representation';
        END IF;
        -- The codec keeps 16 bytes of it and counts the rest up to 65535. Its ellipsis
        -- (U+2026) exists only in a UTF-8 database (a literal one would stop the install in
        -- LATIN1): elsewhere `...`, chosen by statements, which PL/pgSQL plans only when run.
        IF current_setting('server_encoding') = 'UTF8' THEN
            cut := chr(8230);
        ELSE
            cut := '...';
        END IF;
        RAISE EXCEPTION 'wrong prefix: expected `%_`, found `%', prefix, CASE
                WHEN octet_length(found) >= 65535 THEN left(found, 16) || cut || '` (65535 bytes or more)'
                WHEN octet_length(found) > 16 THEN left(found, 16) || cut || '` (' || octet_length(found) || ' bytes)'
                ELSE found || '`'
            END
            USING ERRCODE = 'invalid_text_representation';
    END IF;
    rest := substr(text_id, length(prefix) + 2);
    -- The length of the rest, then a bad character of the 13, at its index in the whole text
    -- (the characters before it are ASCII: its index in characters is its index in bytes);
    -- ulid_flake_from_text reports the range.
    IF octet_length(rest) <> 13 THEN
        RAISE EXCEPTION 'invalid length: expected 13 ASCII characters after `%_`, found % byte%', prefix, octet_length(rest),
            CASE octet_length(rest) WHEN 1 THEN '' ELSE 's' END
            USING ERRCODE = 'invalid_text_representation';
    ELSE
        bad := regexp_match(rest COLLATE "C", '^([0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz]*)([^0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz])');
        IF bad IS NOT NULL THEN
            RAISE EXCEPTION 'invalid character % at index %: expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)',
                quote_literal(bad[2]), length(prefix) + 1 + length(bad[1])
                USING ERRCODE = 'invalid_text_representation';
        END IF;
    END IF;
    RETURN ulid_flake_from_text(rest);
END
$$;

-- Every function the two call is looked up in the schema they were created in, then in
-- pg_temp: an empty search_path (pg_dump's and pg_restore's, when they rebuild an index or a
-- generated column on these) finds them, and another schema on the caller's search_path
-- cannot stand in.
DO $$
BEGIN
    EXECUTE format('ALTER FUNCTION ulid_flake_to_prefixed_text(bigint, text) SET search_path = %I, pg_temp', current_schema());
    EXECUTE format('ALTER FUNCTION ulid_flake_from_prefixed_text(text, text) SET search_path = %I, pg_temp', current_schema());
END
$$;
