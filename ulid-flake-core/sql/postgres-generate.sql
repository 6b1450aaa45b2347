-- Ulid-Flake keys made by PostgreSQL itself, for a column default:
--
--   SELECT ulid_flake_install_generator('billing');  -- once, e.g. in a migration
--   CREATE TABLE invoice (id bigint PRIMARY KEY DEFAULT ulid_flake_generate('billing'), ...);
--
--   ulid_flake_install_generator(namespace text, epoch_ms bigint DEFAULT 1704067200000)
--       -> smallint   reserves a scalability id of the namespace for the database, for good
--   ulid_flake_generate(namespace text) -> bigint   a new key of the namespace's generator
--   (with the command-line client: psql -v ON_ERROR_STOP=1 -f FILE)
--
-- The keys are in the scalable layout, under the id the install reserved in ulid_flake_leases:
-- a row that never expires, whose holder (-9223372036854775808) no application lease uses,
-- so no lease ever takes it. The install takes the lowest id with no row or an expired one,
-- as a lease does, and raises the state (below) to its own millisecond, so that no key is
-- stamped before it: a lease that held the id expired before it, and its holder stamped no
-- key after that (the lease protocol keeps a holder's clock close to the database's). A namespace's generator is
-- installed once; installing it again answers the same id. Every namespace of a database is
-- installed with one epoch (the install refuses another): their keys come from one state, and
-- under two epochs a key of one namespace would be a key of another.
--
-- Keys never repeat within the database, from the state alone: every key is made from the
-- state the call before left, under one lock, and the state only grows. The state is the last
-- key's Unix millisecond and randomness, (unix_ms << 15) | randomness, one for all namespaces
-- (so their keys share a millisecond's capacity). It is a sequence because a sequence changes
-- outside transactions: a rolled-back insert does not take its key back, and no open
-- transaction holds it. The lock is a session-level advisory lock taken and released inside
-- each call (and released when the call fails), never held by a transaction, so an inserter
-- never waits for another one's commit. In a millisecond the randomness grows by a random
-- 1..=255; when the field is full, the key goes on in the next millisecond (bumped, as pgEdge's
-- snowflake does), and when the clock reads an earlier millisecond than the state's (a step
-- back), the keys go on in the state's millisecond, then the ones after it: they stay unique
-- and increasing, stamped ahead of the clock until it catches up. Randomness is gen_random_uuid()'s, a cryptographically
-- secure source. The clock is clock_timestamp(), read when the call runs (now() is the
-- transaction's start, the same for every key of a transaction). The functions look their
-- tables and sequence up in the schema they were created in (their search_path is set to it,
-- then pg_temp), whatever the caller's search_path.
--
-- Limits: one primary. A multi-primary setup (BDR, pgEdge) does not share the state between
-- nodes. With synchronous_commit off, a crash can lose the state of keys already answered.
-- A database moved elsewhere must take the sequence with it (a whole dump does; logical
-- replication does not), or raise it to the old one's before its first key. An install
-- under REPEATABLE READ is refused (its snapshot, from before the install's lock, could miss
-- another install of another epoch); two at once under SERIALIZABLE: the later one fails with
-- a serialization error; retry it.
-- Advisory locks need no privilege: a session that holds this one (pg_advisory_lock(1431062852,
-- 1179402571)) makes every call fail after waiting 2 s, the step's lock_timeout (ALTER FUNCTION
-- ulid_flake_next_state(bigint, bigint, bigint) SET lock_timeout = ... to change it), with an
-- error naming the lock and its holder's process: a denial of service, never a duplicate.
-- A call cancelled a second time while it releases its lock after a failure would leave the
-- lock with its session until the session ends: the others then fail in the same way.
--
-- What a caller needs: EXECUTE on ulid_flake_generate (PUBLIC's by default), which runs with
-- its owner's rights (SECURITY DEFINER), so that callers need no right on the state and
-- cannot set it back. Install the functions in the schema whose ulid_flake_leases the
-- application's leases use: the reservation is in that table. The installing role must own
-- that table (or create it here): the reservation's triggers go on it. Since the owner's rights
-- are a caller's within the call, every name the functions use is looked up in that schema,
-- then pg_temp (the search_path the last DO block sets): a caller's own schema first on its
-- search_path, with functions, an operator, tables and a sequence of those names, stands in
-- for none of them (postgres_a_caller_s_own_schema_first_on_its_search_path_stands_in_for_nothing),
-- nor does a temporary sequence (postgres_a_temporary_sequence_does_not_stand_in_for_the_state).
-- So no untrusted role may CREATE in that schema: an operator made there (= of varchar and
-- text, say) would run with the owner's rights. PostgreSQL 15's public is such a schema; on
-- earlier versions REVOKE CREATE ON SCHEMA public FROM PUBLIC, or install in another.
--
-- Nothing a caller sets changes the state: the clock is the server's and the randomness field
-- is whole. ulid_flake_make_key(namespace, clock_ms, field_max), which takes both as
-- arguments, is the owner's alone (EXECUTE revoked from PUBLIC): the tests call it to step the
-- clock and to make a millisecond's values run out sooner.

CREATE TABLE IF NOT EXISTS ulid_flake_leases (namespace VARCHAR(64) NOT NULL, scalability_id SMALLINT NOT NULL CHECK (scalability_id BETWEEN 0 AND 31), holder BIGINT NOT NULL, holder_epoch_ms BIGINT NOT NULL, holder_margin_us BIGINT NOT NULL, expires_at_us BIGINT NOT NULL, PRIMARY KEY (namespace, scalability_id));

-- The foreign key keeps the reservation's row while its generator exists: it cannot be
-- deleted, nor the lease table truncated (but with its generators, which a trigger below
-- refuses).
CREATE TABLE IF NOT EXISTS ulid_flake_generators (
    namespace VARCHAR(64) PRIMARY KEY,
    scalability_id SMALLINT NOT NULL CHECK (scalability_id BETWEEN 0 AND 31),
    epoch_ms BIGINT NOT NULL,
    CONSTRAINT ulid_flake_generators_reservation FOREIGN KEY (namespace, scalability_id)
        REFERENCES ulid_flake_leases (namespace, scalability_id)
);

CREATE SEQUENCE IF NOT EXISTS ulid_flake_generator_state AS bigint MINVALUE 0 START 0;

CREATE OR REPLACE FUNCTION ulid_flake_check_namespace(namespace text) RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    IF namespace IS NULL OR octet_length(namespace) NOT BETWEEN 1 AND 64 THEN
        RAISE EXCEPTION 'invalid namespace: expected 1..=64 bytes, found %',
            coalesce(octet_length(namespace)::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
END
$$;

-- Fails unless the namespace's id is still reserved for the database's generator: a lease
-- could take an id whose row is gone or changed, and make the keys the generator makes.
CREATE OR REPLACE FUNCTION ulid_flake_check_reservation(namespace text, scalability_id smallint)
RETURNS void
LANGUAGE plpgsql STABLE AS $$
BEGIN
    PERFORM FROM ulid_flake_leases l
        WHERE l.namespace = ulid_flake_check_reservation.namespace
        AND l.scalability_id = ulid_flake_check_reservation.scalability_id
        AND l.holder = -9223372036854775808 AND l.expires_at_us = 9223372036854775807;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'reservation lost: expected scalability id % of namespace % reserved for the database''s generator in ulid_flake_leases (holder -9223372036854775808, never expiring), found no such row (a lease may take the id)',
            scalability_id, quote_literal(namespace)
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
END
$$;

-- The reserved rows and the generators stay as the install made them: a lease that took the
-- database's id, or a generator moved to another id or epoch, would repeat keys. The triggers
-- are below.
CREATE OR REPLACE FUNCTION ulid_flake_keep_reservation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        IF EXISTS (SELECT FROM ulid_flake_leases WHERE holder = -9223372036854775808) THEN
            RAISE EXCEPTION 'ulid_flake_leases holds ids reserved for the database''s generator: expected no TRUNCATE of it, found one'
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'scalability id % of namespace % is reserved for the database''s generator: expected no % of its row in ulid_flake_leases, found one',
        OLD.scalability_id, quote_literal(OLD.namespace), TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;

CREATE OR REPLACE FUNCTION ulid_flake_keep_generator() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the generator of namespace % is fixed: expected no UPDATE of its row in ulid_flake_generators, found one',
        quote_literal(OLD.namespace)
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;

-- The state after the last one for a clock reading (Unix ms), under the lock: the one step
-- of both functions. The state is left as it was when the key's millisecond falls outside
-- the 43 bits after epoch_ms. Not for callers: EXECUTE is revoked from PUBLIC below.
-- Any login may take an advisory lock, this one too: lock_timeout bounds how long a call waits
-- for it, and the error then names it.
CREATE OR REPLACE FUNCTION ulid_flake_next_state(clock_ms bigint, field_max bigint, epoch_ms bigint)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET lock_timeout = '2s' AS $$
DECLARE
    -- classid 'ULID' (0x554C4944), objid 'FLAK' (0x464C414B): the state's own lock.
    lock_class CONSTANT int := 1431062852;
    lock_object CONSTANT int := 1179402571;
    -- A version 4 UUID: bytes 0-5, 7 and 9-15 are random.
    random_bytes CONSTANT bytea := uuid_send(gen_random_uuid());
    fresh CONSTANT bigint :=
        (((get_byte(random_bytes, 0) << 8) | get_byte(random_bytes, 1)) & 32767) % (field_max + 1);
    -- A draw of 0 is drawn again: the first non-zero of four random bytes (all four zero:
    -- 1 in 2^32, then 1).
    increment CONSTANT int := coalesce(nullif(get_byte(random_bytes, 2), 0),
        nullif(get_byte(random_bytes, 3), 0), nullif(get_byte(random_bytes, 4), 0),
        nullif(get_byte(random_bytes, 5), 0), 1);
    last_state bigint;
    unix_ms bigint := clock_ms;
    randomness bigint;
    locked boolean := false;
BEGIN
    IF field_max IS NULL OR field_max NOT BETWEEN 0 AND 32767 THEN
        RAISE EXCEPTION 'invalid field maximum: expected 0..=32767, found %',
            coalesce(field_max::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- A NULL reading would compare as "not after the state" and go on from it unnoticed.
    IF clock_ms IS NULL THEN
        RAISE EXCEPTION 'no clock reading: expected the server''s time in Unix ms, found NULL'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    BEGIN
        PERFORM pg_advisory_lock(lock_class, lock_object);
        locked := true;
        -- The sequence's current value, outside any snapshot (an error without SELECT on it).
        SELECT CASE WHEN is_called THEN last_value ELSE 0 END INTO last_state
            FROM ulid_flake_generator_state;
        IF unix_ms > (last_state >> 15) THEN
            randomness := fresh;
        ELSE
            unix_ms := last_state >> 15;
            randomness := (last_state & 32767) + increment;
            IF randomness > field_max THEN
                unix_ms := unix_ms + 1;
                randomness := fresh;
            END IF;
        END IF;
        -- The epochs an install accepts keep this below 2^48, the state's millisecond field:
        -- the shift cannot overflow.
        IF unix_ms - epoch_ms NOT BETWEEN 0 AND 8796093022207 THEN
            RAISE EXCEPTION 'timestamp out of range: expected 0..=8796093022207 ms since the epoch %, found %',
                epoch_ms, unix_ms - epoch_ms
                USING ERRCODE = 'datetime_field_overflow';
        END IF;
        PERFORM setval('ulid_flake_generator_state', (unix_ms << 15) | randomness);
        PERFORM pg_advisory_unlock(lock_class, lock_object);
    EXCEPTION WHEN OTHERS OR query_canceled THEN
        -- A session-level lock outlives the failed call unless released here.
        PERFORM pg_advisory_unlock(lock_class, lock_object) FROM pg_locks
            WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted
            AND classid = lock_class::oid AND objid = lock_object::oid AND objsubid = 2;
        IF SQLSTATE = '55P03' AND NOT locked THEN
            RAISE EXCEPTION 'lock timeout: expected the generator state''s advisory lock (%, %) within %, found it held by %',
                lock_class, lock_object, current_setting('lock_timeout'),
                coalesce((SELECT 'process ' || pid FROM pg_locks
                    WHERE locktype = 'advisory' AND granted AND classid = lock_class::oid
                    AND objid = lock_object::oid AND objsubid = 2), 'another session')
                USING ERRCODE = 'lock_not_available';
        END IF;
        RAISE;
    END;
    RETURN (unix_ms << 15) | randomness;
END
$$;

CREATE OR REPLACE FUNCTION ulid_flake_install_generator(
    namespace text, epoch_ms bigint DEFAULT 1704067200000
) RETURNS smallint
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    database_holder CONSTANT bigint := -9223372036854775808;
    never CONSTANT bigint := 9223372036854775807;
    installed ulid_flake_generators%ROWTYPE;
    -- Another namespace's generator, of another epoch.
    other ulid_flake_generators%ROWTYPE;
    reserved smallint;
    taken bigint;
    now_us bigint;
BEGIN
    PERFORM ulid_flake_check_namespace(namespace);
    -- A snapshot from before the lock below could miss another install of another epoch
    -- (SERIALIZABLE aborts one of two such installs; READ COMMITTED reads after the lock).
    IF current_setting('transaction_isolation') = 'repeatable read' THEN
        RAISE EXCEPTION 'invalid transaction isolation for an install: expected read committed or serializable, found repeatable read (its snapshot may predate another install)'
            USING ERRCODE = 'invalid_transaction_state';
    END IF;
    -- The last epoch whose keys' milliseconds all stay below 2^48, the state's field.
    IF epoch_ms IS NULL OR epoch_ms NOT BETWEEN 0 AND 272678883688448 THEN
        RAISE EXCEPTION 'invalid epoch: expected 0..=272678883688448 Unix ms, found %',
            coalesce(epoch_ms::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- One install at a time (classid 'ULII'), of every namespace, for the check of the
    -- epochs below; the generators' lock is not taken, so no inserter waits for this
    -- transaction.
    PERFORM pg_advisory_xact_lock(1431062857, 0);
    SELECT * INTO installed FROM ulid_flake_generators g
        WHERE g.namespace = ulid_flake_install_generator.namespace;
    IF FOUND THEN
        IF installed.epoch_ms <> epoch_ms THEN
            RAISE EXCEPTION 'generator of namespace % installed already with another epoch: expected %, found %',
                quote_literal(namespace), installed.epoch_ms, epoch_ms
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
        PERFORM ulid_flake_check_reservation(namespace, installed.scalability_id);
        RETURN installed.scalability_id;
    END IF;
    now_us := (extract(epoch FROM clock_timestamp()) * 1000000)::bigint;
    -- No key could be made with an epoch the clock has not reached: refused before an id is
    -- taken for it.
    IF now_us / 1000 - epoch_ms NOT BETWEEN 0 AND 8796093022207 THEN
        RAISE EXCEPTION 'invalid epoch: expected one 0..=8796093022207 ms before the server''s clock, found % Unix ms',
            epoch_ms
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- Every namespace's keys come from the one state, and each namespace reserves an id of its
    -- own lease namespace (the lowest free: often the same number): under another epoch, a key
    -- of one namespace is a key of the other, made as many ms later with the same randomness.
    SELECT * INTO other FROM ulid_flake_generators g
        WHERE g.epoch_ms <> ulid_flake_install_generator.epoch_ms
        ORDER BY g.namespace LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'generator of namespace % would make keys of namespace %: expected the epoch of the generators installed already, %, found %',
            quote_literal(namespace), quote_literal(other.namespace), other.epoch_ms, epoch_ms
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR id IN 0..31 LOOP
        -- Recorded as a lease's holder records its own: the server's clock stamps the keys, so
        -- its margin is 0, and a row a lease of a later epoch left is taken once the keys of
        -- this epoch follow the lease's IDs (as Dialect::take_expired).
        INSERT INTO ulid_flake_leases
            (namespace, scalability_id, holder, holder_epoch_ms, holder_margin_us, expires_at_us)
            VALUES (namespace, id, database_holder, epoch_ms, 0, never) ON CONFLICT DO NOTHING;
        GET DIAGNOSTICS taken = ROW_COUNT;
        IF taken = 0 THEN
            UPDATE ulid_flake_leases l SET holder = database_holder,
                    holder_epoch_ms = ulid_flake_install_generator.epoch_ms, holder_margin_us = 0,
                    expires_at_us = never
                WHERE l.namespace = ulid_flake_install_generator.namespace
                AND l.scalability_id = id AND l.expires_at_us < now_us - GREATEST(0,
                    (ulid_flake_install_generator.epoch_ms - l.holder_epoch_ms) * 1000
                    + (0 - l.holder_margin_us) / 2);
            GET DIAGNOSTICS taken = ROW_COUNT;
        END IF;
        IF taken = 1 THEN
            reserved := id;
            EXIT;
        END IF;
    END LOOP;
    IF reserved IS NULL THEN
        RAISE EXCEPTION 'all scalability ids 0..=31 of namespace % are taken: expected a free id for the database''s generator, found every one leased by another holder',
            quote_literal(namespace)
            USING ERRCODE = 'insufficient_resources';
    END IF;
    INSERT INTO ulid_flake_generators (namespace, scalability_id, epoch_ms)
        VALUES (namespace, reserved, epoch_ms);
    -- No key before this moment: an expired lease's holder stamped none after it.
    PERFORM ulid_flake_next_state(now_us / 1000, 32767, epoch_ms);
    RETURN reserved;
END
$$;

-- The key of the namespace's generator for a clock reading (Unix ms) and a randomness field
-- whose maximum is field_max: ulid_flake_generate's step, with the server's clock and 32767.
CREATE OR REPLACE FUNCTION ulid_flake_make_key(namespace text, clock_ms bigint, field_max bigint)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE AS $$
DECLARE
    installed ulid_flake_generators%ROWTYPE;
    state bigint;
BEGIN
    PERFORM ulid_flake_check_namespace(namespace);
    SELECT * INTO installed FROM ulid_flake_generators g
        WHERE g.namespace = ulid_flake_make_key.namespace;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no generator in namespace %: expected one installed by ulid_flake_install_generator, found none',
            quote_literal(namespace)
            USING ERRCODE = 'undefined_object';
    END IF;
    -- Read at the statement's snapshot (a lock on the row would be the caller's transaction's);
    -- the triggers refuse the changes that would race with it.
    PERFORM ulid_flake_check_reservation(namespace, installed.scalability_id);
    state := ulid_flake_next_state(clock_ms, field_max, installed.epoch_ms);
    RETURN (((state >> 15) - installed.epoch_ms) << 20) | ((state & 32767) << 5)
        | installed.scalability_id;
END
$$;

-- SECURITY DEFINER: a caller needs EXECUTE on this function alone, not the rights on the
-- state that would let it set the state back, nor on ulid_flake_make_key.
CREATE OR REPLACE FUNCTION ulid_flake_generate(namespace text) RETURNS bigint
LANGUAGE sql VOLATILE PARALLEL UNSAFE SECURITY DEFINER AS $$
    SELECT ulid_flake_make_key(namespace,
        floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint, 32767)
$$;

-- Created once: dropping and creating them again would lock the lease table on every run.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_trigger WHERE tgrelid = 'ulid_flake_leases'::regclass
        AND tgname = 'ulid_flake_keep_reservation') THEN
        CREATE TRIGGER ulid_flake_keep_reservation BEFORE UPDATE OR DELETE ON ulid_flake_leases
            FOR EACH ROW WHEN (OLD.holder = -9223372036854775808)
            EXECUTE FUNCTION ulid_flake_keep_reservation();
    END IF;
    IF NOT EXISTS (SELECT FROM pg_trigger WHERE tgrelid = 'ulid_flake_leases'::regclass
        AND tgname = 'ulid_flake_keep_reservations') THEN
        CREATE TRIGGER ulid_flake_keep_reservations BEFORE TRUNCATE ON ulid_flake_leases
            FOR EACH STATEMENT EXECUTE FUNCTION ulid_flake_keep_reservation();
    END IF;
    IF NOT EXISTS (SELECT FROM pg_trigger WHERE tgrelid = 'ulid_flake_generators'::regclass
        AND tgname = 'ulid_flake_keep_generator') THEN
        CREATE TRIGGER ulid_flake_keep_generator BEFORE UPDATE ON ulid_flake_generators
            FOR EACH ROW EXECUTE FUNCTION ulid_flake_keep_generator();
    END IF;
END
$$;

-- Every name the functions use is looked up in the schema they were created in, then in
-- pg_temp: a temporary table or another schema on the caller's search_path cannot stand in.
DO $$
BEGIN
    EXECUTE format('ALTER FUNCTION ulid_flake_check_reservation(text, smallint) SET search_path = %I, pg_temp', current_schema());
    EXECUTE format('ALTER FUNCTION ulid_flake_keep_reservation() SET search_path = %I, pg_temp', current_schema());
    EXECUTE format('ALTER FUNCTION ulid_flake_next_state(bigint, bigint, bigint) SET search_path = %I, pg_temp', current_schema());
    EXECUTE format('ALTER FUNCTION ulid_flake_make_key(text, bigint, bigint) SET search_path = %I, pg_temp', current_schema());
    EXECUTE format('ALTER FUNCTION ulid_flake_install_generator(text, bigint) SET search_path = %I, pg_temp', current_schema());
    EXECUTE format('ALTER FUNCTION ulid_flake_generate(text) SET search_path = %I, pg_temp', current_schema());
END
$$;

REVOKE EXECUTE ON FUNCTION ulid_flake_next_state(bigint, bigint, bigint) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ulid_flake_make_key(text, bigint, bigint) FROM PUBLIC;
