-- Ulid-Flake keys made by MariaDB itself (10.11 tested; RANDOM_BYTES needs 10.10,
-- INSERT ... RETURNING 10.5). MariaDB refuses a stored function in a column's DEFAULT, so a
-- BEFORE INSERT trigger calls it (ulid_flake_core::sql::mysql_generate_trigger writes one):
--
--   CALL ulid_flake_install_generator('billing', 1704067200000);  -- once, e.g. in a migration
--   CREATE TABLE invoice (id BIGINT NOT NULL DEFAULT 0 PRIMARY KEY, ...);
--   CREATE TRIGGER invoice_id_ulid_flake BEFORE INSERT ON invoice FOR EACH ROW
--       SET NEW.id = IF(IFNULL(NEW.id, 0) = 0, ulid_flake_generate('billing'), NEW.id);
--
--   ulid_flake_install_generator(namespace, epoch_ms)   a procedure: reserves a scalability id
--       of the namespace for the database, for good; answers one row, scalability_id
--   ulid_flake_generate(namespace) -> BIGINT            a new key of the namespace's generator
--
-- With the command-line client, as mysql.sql: (cat FILE; echo '$$') | mariadb --delimiter='$$' DATABASE
--
-- The design is PostgreSQL's (postgres-generate.sql says why): the install reserves the
-- lowest free id in ulid_flake_leases with a row that never expires, held by
-- -9223372036854775808, which no application lease uses, and raises the state to its own
-- millisecond; every key is made from one state, (unix_ms << 15) | randomness, which only
-- grows; a clock stepped back goes on in the state's millisecond, a full one in the next. The
-- state is the AUTO_INCREMENT counter of an InnoDB table, ulid_flake_generator_state (the
-- last state + 1), which InnoDB neither lowers when an insert rolls back or a row is deleted
-- nor loses in a crash once its redo log holds it (MariaDB 10.2.4 and later): each step
-- inserts a row of its own, under a random negative key (taking the table's lock before the
-- named lock), then,
-- under a named lock (GET_LOCK, a session's, taken and released within the call), inserts a
-- row whose key the counter gives (the last state + 1), computes the next state from it,
-- inserts that state as a row when it is larger (raising the counter), and deletes the rows
-- one by one, so the table stays empty. Nothing else waits: the rows are the call's own,
-- deleted by their keys (no gap locked), InnoDB's table lock for an insert lets other
-- inserters in, and the named lock is not held once the call returns, so an
-- inserting statement that then waits for a row lock of an open transaction makes no other
-- caller wait. (A row of a non-transactional table would: MariaDB locks every table a
-- statement's triggers and functions use when the statement starts, until it ends, and
-- Aria's and MyISAM's locks shut other writers out.) With innodb_autoinc_lock_mode = 0
-- ("traditional", not the default) an insert holds the counter's lock to the end of the
-- calling statement, and inserters would wait for each other's statements again. A session's
-- insert_id, auto_increment_increment and auto_increment_offset are set aside for the
-- counter's insert, or they would make it answer another value than the counter's. The clock
-- is SYSDATE(6) in
-- UTC, read when the call runs (NOW() is the statement's start), whatever the session's time
-- zone, and counted in Unix ms without UNIX_TIMESTAMP's 2038 limit. (A server started with
-- --sysdate-is-now would read the statement's start, which a session's SET TIMESTAMP moves:
-- do not run one so.) Randomness is RANDOM_BYTES (the server's TLS library, a
-- cryptographically secure source).
--
-- Limits: one primary. Galera's nodes would each take the named lock of their own; with
-- binlog_format STATEMENT a replica would run the trigger itself and make keys of its own, so
-- the function refuses to make a key then (MIXED, the default, and ROW log the rows, the
-- state's included, so a replica's counter follows the primary's). A database moved elsewhere
-- must take the state's counter with it (a whole dump does: it is the table's AUTO_INCREMENT),
-- or be raised to it before its first key. A call interrupted (KILL QUERY, max_statement_time)
-- while it holds the named lock leaves it held by its session (no handler runs then): every
-- other call then fails after 2 s naming that connection, until the session's next call
-- (which releases it, as often as the session took it) or its end. Each caller's transaction
-- holds a shared lock on its namespace's row of ulid_flake_generators until it ends (the
-- read within an INSERT locks), which nothing but a refused UPDATE would wait for. DDL on
-- these tables or functions waits for every open transaction that made a key, and every
-- caller waits behind it. The install's
-- lock (one for every namespace of the database: they share one epoch, the install checks)
-- is released when the procedure ends, not when its transaction does: two installs of
-- one namespace in explicit transactions at once both reserve an id, and the later one then
-- fails on ulid_flake_generators' key; roll it back and retry. (The check of the epochs reads
-- with a shared lock, so an install of another namespace waits for such a transaction to end.)
-- A temporary table named ulid_flake_generator_state, ulid_flake_generators or
-- ulid_flake_leases stands in for the table in its session. An install killed (KILL) while it
-- holds the install lock keeps it until its session ends; one killed between reserving the
-- id and recording the generator leaves the id reserved, and the next install takes another.
--
-- Binary logging: the function is declared NOT DETERMINISTIC READS SQL DATA, which MariaDB
-- accepts with binary logging on (a function that declares MODIFIES SQL DATA is refused, error
-- 1418, unless log_bin_trust_function_creators is on); the server does not check the
-- characteristic, and the function's only writes are the state's rows. Creating a function or
-- a trigger with binary logging on needs the SUPER privilege, or
-- log_bin_trust_function_creators on.
--
-- MySQL 8 (not tested here) has no SET STATEMENT and no RETURNING.
--
-- Nothing a caller sets changes the state: the clock is the server's and the randomness field
-- is whole. ulid_flake_make_key(namespace, clock_ms, field_max), which takes both as
-- arguments, is for the tests, which call it to step the clock and to make a millisecond's
-- values run out sooner: grant callers EXECUTE on ulid_flake_generate alone (a trigger runs
-- as its definer, so an inserting user needs none).

CREATE TABLE IF NOT EXISTS ulid_flake_leases (namespace VARCHAR(64) NOT NULL, scalability_id SMALLINT NOT NULL CHECK (scalability_id BETWEEN 0 AND 31), holder BIGINT NOT NULL, holder_epoch_ms BIGINT NOT NULL, holder_margin_us BIGINT NOT NULL, expires_at_us BIGINT NOT NULL, PRIMARY KEY (namespace, scalability_id)) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS ulid_flake_generators (
    namespace VARCHAR(64) NOT NULL PRIMARY KEY,
    scalability_id SMALLINT NOT NULL CHECK (scalability_id BETWEEN 0 AND 31),
    epoch_ms BIGINT NOT NULL,
    CONSTRAINT ulid_flake_generators_reservation FOREIGN KEY (namespace, scalability_id)
        REFERENCES ulid_flake_leases (namespace, scalability_id)
) ENGINE = InnoDB;

-- Empty: its AUTO_INCREMENT counter is the state + 1.
CREATE TABLE IF NOT EXISTS ulid_flake_generator_state (
    state BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY
) ENGINE = InnoDB;

-- The reserved rows and the generators stay as the install made them: a lease that took the
-- database's id, or a generator moved to another id or epoch, would repeat keys. The foreign
-- key above keeps a reservation's row while its generator exists, and refuses TRUNCATE (with
-- foreign_key_checks on); these triggers refuse the rest. The function does not read the
-- reservation at each call, as PostgreSQL's does: a read there, within an INSERT, would hold a
-- shared lock on the row until the inserter commits, and make a lease that tries the id wait.
-- Like every trigger, they run as their definer, the installing user: while that account is
-- missing, every UPDATE of the lease table fails (error 1449), leases' renewals included.
-- The refusal both triggers of the lease table call (MariaDB has no trigger for two events).
CREATE OR REPLACE PROCEDURE ulid_flake_keep_reservation(holder BIGINT, scalability_id SMALLINT,
    namespace VARCHAR(64), statement VARCHAR(6))
    NO SQL
BEGIN
    DECLARE message VARCHAR(512);
    IF holder = -9223372036854775808 THEN
        SET message = CONCAT('scalability id ', scalability_id, ' of namespace ',
            QUOTE(namespace), ' is reserved for the database''s generator: expected no ',
            statement, ' of its row in ulid_flake_leases, found one');
        SIGNAL SQLSTATE '23000' SET MESSAGE_TEXT = message;
    END IF;
END;

CREATE TRIGGER IF NOT EXISTS ulid_flake_keep_reservation_update BEFORE UPDATE ON ulid_flake_leases
FOR EACH ROW CALL ulid_flake_keep_reservation(OLD.holder, OLD.scalability_id, OLD.namespace, 'UPDATE');

CREATE TRIGGER IF NOT EXISTS ulid_flake_keep_reservation_delete BEFORE DELETE ON ulid_flake_leases
FOR EACH ROW CALL ulid_flake_keep_reservation(OLD.holder, OLD.scalability_id, OLD.namespace, 'DELETE');

CREATE TRIGGER IF NOT EXISTS ulid_flake_keep_generator BEFORE UPDATE ON ulid_flake_generators
FOR EACH ROW
BEGIN
    DECLARE message VARCHAR(512) DEFAULT CONCAT('the generator of namespace ', QUOTE(OLD.namespace),
        ' is fixed: expected no UPDATE of its row in ulid_flake_generators, found one');
    SIGNAL SQLSTATE '23000' SET MESSAGE_TEXT = message;
END;

-- The install's and each key's check of a namespace: 1..=64 bytes.
CREATE OR REPLACE PROCEDURE ulid_flake_check_namespace(namespace TEXT)
    NO SQL
BEGIN
    DECLARE message VARCHAR(512);
    IF namespace IS NULL OR LENGTH(namespace) NOT BETWEEN 1 AND 64 THEN
        SET message = CONCAT('invalid namespace: expected 1..=64 bytes, found ',
            COALESCE(LENGTH(namespace), 'NULL'));
        SIGNAL SQLSTATE '22023' SET MESSAGE_TEXT = message;
    END IF;
END;

CREATE OR REPLACE PROCEDURE ulid_flake_install_generator(namespace TEXT, epoch_ms BIGINT)
    MODIFIES SQL DATA
BEGIN
    DECLARE database_holder BIGINT DEFAULT -9223372036854775808;
    DECLARE never BIGINT DEFAULT 9223372036854775807;
    DECLARE now_us BIGINT;
    DECLARE id SMALLINT DEFAULT 0;
    DECLARE installed_id SMALLINT;
    DECLARE installed_epoch BIGINT;
    DECLARE other_namespace VARCHAR(64);
    DECLARE other_epoch BIGINT;
    -- One for every namespace of this database (GET_LOCK's names are the server's).
    DECLARE install_lock VARCHAR(64) DEFAULT CONCAT('ulid_flake_install ', MD5(DATABASE()));
    DECLARE taken BIGINT;
    DECLARE message VARCHAR(512);
    -- The install's own lock outlives a failed call unless released here.
    DECLARE EXIT HANDLER FOR SQLEXCEPTION
    BEGIN
        DO RELEASE_LOCK(install_lock);
        RESIGNAL;
    END;
    CALL ulid_flake_check_namespace(namespace);
    -- The last epoch whose keys' milliseconds all stay below 2^48, the state's field.
    IF epoch_ms IS NULL OR epoch_ms NOT BETWEEN 0 AND 272678883688448 THEN
        SET message = CONCAT('invalid epoch: expected 0..=272678883688448 Unix ms, found ',
            COALESCE(epoch_ms, 'NULL'));
        SIGNAL SQLSTATE '22023' SET MESSAGE_TEXT = message;
    END IF;
    -- One install at a time, of every namespace, for the check of the epochs below (each
    -- statement here commits on its own).
    IF NOT (GET_LOCK(install_lock, 10) <=> 1) THEN
        SIGNAL SQLSTATE '55P03' SET MESSAGE_TEXT =
            'lock wait timeout: expected the install lock within 10 s, found it held';
    END IF;
    SELECT g.scalability_id, g.epoch_ms INTO installed_id, installed_epoch
        FROM ulid_flake_generators g WHERE g.namespace = namespace;
    IF installed_id IS NOT NULL THEN
        IF installed_epoch <> epoch_ms THEN
            SET message = CONCAT('generator of namespace ', QUOTE(namespace),
                ' installed already with another epoch: expected ', installed_epoch,
                ', found ', epoch_ms);
            SIGNAL SQLSTATE '22023' SET MESSAGE_TEXT = message;
        END IF;
        IF NOT EXISTS (SELECT 1 FROM ulid_flake_leases l WHERE l.namespace = namespace
            AND l.scalability_id = installed_id AND l.holder = database_holder
            AND l.expires_at_us = never) THEN
            SET message = CONCAT('reservation lost: expected scalability id ', installed_id,
                ' of namespace ', QUOTE(namespace), ' reserved for the database''s generator in ulid_flake_leases (holder -9223372036854775808, never expiring), found no such row (a lease may take the id)');
            SIGNAL SQLSTATE '55000' SET MESSAGE_TEXT = message;
        END IF;
    ELSE
        SET now_us = TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6));
        -- No key could be made with an epoch the clock has not reached: refused before an id
        -- is taken for it.
        IF now_us DIV 1000 - epoch_ms NOT BETWEEN 0 AND 8796093022207 THEN
            SET message = CONCAT('invalid epoch: expected one 0..=8796093022207 ms before the server''s clock, found ',
                epoch_ms, ' Unix ms');
            SIGNAL SQLSTATE '22023' SET MESSAGE_TEXT = message;
        END IF;
        -- Every namespace's keys come from the one state, and each namespace reserves an id
        -- of its own lease namespace (the lowest free: often the same number): under another
        -- epoch, a key of one namespace is a key of the other, made as many ms later with the
        -- same randomness.
        SELECT g.namespace, g.epoch_ms INTO other_namespace, other_epoch
            FROM ulid_flake_generators g WHERE g.epoch_ms <> epoch_ms
            ORDER BY g.namespace LIMIT 1 LOCK IN SHARE MODE;
        IF other_namespace IS NOT NULL THEN
            SET message = CONCAT('generator of namespace ', QUOTE(namespace),
                ' would make keys of namespace ', QUOTE(other_namespace),
                ': expected the epoch of the generators installed already, ', other_epoch,
                ', found ', epoch_ms);
            SIGNAL SQLSTATE '22023' SET MESSAGE_TEXT = message;
        END IF;
        WHILE installed_id IS NULL AND id <= 31 DO
            -- Recorded as a lease's holder records its own: the server's clock stamps the
            -- keys, so its margin is 0, and a row a lease of a later epoch left is taken once
            -- the keys of this epoch follow the lease's IDs (as Dialect::take_expired). The
            -- condition reads the row as it was.
            INSERT IGNORE INTO ulid_flake_leases
                (namespace, scalability_id, holder, holder_epoch_ms, holder_margin_us, expires_at_us)
                VALUES (namespace, id, database_holder, epoch_ms, 0, never);
            SET taken = ROW_COUNT();
            IF taken = 0 THEN
                UPDATE ulid_flake_leases l SET l.holder = database_holder,
                        l.holder_epoch_ms = epoch_ms, l.holder_margin_us = 0, l.expires_at_us = never
                    WHERE l.namespace = namespace AND l.scalability_id = id
                    AND l.expires_at_us < now_us - GREATEST(0,
                        (epoch_ms - l.holder_epoch_ms) * 1000 + (0 - l.holder_margin_us) DIV 2);
                SET taken = ROW_COUNT();
            END IF;
            IF taken = 1 THEN
                SET installed_id = id;
            END IF;
            SET id = id + 1;
        END WHILE;
        IF installed_id IS NULL THEN
            SET message = CONCAT('all scalability ids 0..=31 of namespace ', QUOTE(namespace),
                ' are taken: expected a free id for the database''s generator, found every one leased by another holder');
            SIGNAL SQLSTATE '53000' SET MESSAGE_TEXT = message;
        END IF;
        -- No key before this moment, by the clock the lease's expiry was read with: an expired
        -- lease's holder stamped none after it.
        DO ulid_flake_next_state(now_us DIV 1000, 32767, epoch_ms);
        INSERT INTO ulid_flake_generators (namespace, scalability_id, epoch_ms)
            VALUES (namespace, installed_id, epoch_ms);
    END IF;
    DO RELEASE_LOCK(install_lock);
    SELECT installed_id AS scalability_id;
END;

-- The state after the last one for a clock reading (Unix ms), a randomness field whose maximum
-- is field_max and an epoch: the clock's millisecond with fresh randomness when it is past
-- the last state's, else the last state's randomness grown by a random 1..=255, or the next
-- millisecond with fresh randomness when that passes field_max. Refused, the state left as it
-- was, when its millisecond is outside the epoch's 43 bits: a clock read far ahead once would
-- otherwise stop every later key.
CREATE OR REPLACE FUNCTION ulid_flake_next_state(clock_ms BIGINT, field_max BIGINT, epoch_ms BIGINT) RETURNS BIGINT
    NOT DETERMINISTIC READS SQL DATA
BEGIN
    DECLARE random_bytes BINARY(6) DEFAULT RANDOM_BYTES(6);
    DECLARE fresh BIGINT;
    DECLARE increment BIGINT;
    DECLARE taken BIGINT;
    DECLARE last_state BIGINT;
    DECLARE unix_ms BIGINT DEFAULT clock_ms;
    DECLARE randomness BIGINT;
    DECLARE made BIGINT;
    DECLARE released INT;
    -- Named locks are the server's: one of each database's (the function's own), 60 bytes.
    DECLARE lock_name VARCHAR(64) DEFAULT CONCAT('ulid_flake_generator_state ', MD5(DATABASE()));
    -- The call's own row, below every state, under a random key of 56 bits: another open
    -- transaction's row has it by a chance of 2^-56 (this call then waits 2 s and fails). A
    -- connection's id would not do: a prepared XA transaction outlives its session, and a
    -- restart gives the id to another.
    DECLARE own_row BIGINT DEFAULT -1 - CAST(CONV(HEX(RANDOM_BYTES(7)), 16, 10) AS SIGNED);
    DECLARE message VARCHAR(512);
    DECLARE EXIT HANDLER FOR SQLEXCEPTION
    BEGIN
        DO RELEASE_LOCK(lock_name);
        RESIGNAL;
    END;
    -- The table's own lock first, outside the named lock: a session holding LOCK TABLES ...
    -- WRITE of a table with the trigger, with autocommit off, holds the state's table too.
    -- Waited for here, the calling statement fails after 2 s (a lock wait timeout, which no
    -- handler may catch within a trigger or function) and holds nothing; waited for under the
    -- named lock, it would stall every caller and leave that lock held.
    SET STATEMENT innodb_lock_wait_timeout = 2 FOR
        INSERT INTO ulid_flake_generator_state (state) VALUES (own_row);
    IF NOT (GET_LOCK(lock_name, 2) <=> 1) THEN
        SET message = CONCAT('lock wait timeout: expected the generator state''s lock, GET_LOCK(',
            QUOTE(lock_name), '), within 2 s, found it held by connection ',
            COALESCE(IS_USED_LOCK(lock_name), 'none'));
        SIGNAL SQLSTATE 'HY000' SET MESSAGE_TEXT = message;
    END IF;
    -- The counter's next value, the last state + 1, whatever the session set for its own
    -- inserts.
    SET STATEMENT insert_id = 0, auto_increment_increment = 1, auto_increment_offset = 1 FOR
        INSERT INTO ulid_flake_generator_state (state) VALUES (NULL);
    SET taken = LAST_INSERT_ID();
    SET last_state = taken - 1;
    SET fresh = (CONV(HEX(SUBSTRING(random_bytes, 1, 2)), 16, 10) & 32767) % (field_max + 1);
    -- A draw of 0 is drawn again: the first non-zero of four random bytes (all four zero:
    -- 1 in 2^32, then 1).
    SET increment = COALESCE(NULLIF(ASCII(SUBSTRING(random_bytes, 3, 1)), 0),
        NULLIF(ASCII(SUBSTRING(random_bytes, 4, 1)), 0),
        NULLIF(ASCII(SUBSTRING(random_bytes, 5, 1)), 0),
        NULLIF(ASCII(SUBSTRING(random_bytes, 6, 1)), 0), 1);
    IF unix_ms > (last_state >> 15) THEN
        SET randomness = fresh;
    ELSE
        SET unix_ms = last_state >> 15;
        SET randomness = (last_state & 32767) + increment;
        IF randomness > field_max THEN
            SET unix_ms = unix_ms + 1;
            SET randomness = fresh;
        END IF;
    END IF;
    IF unix_ms - epoch_ms NOT BETWEEN 0 AND 8796093022207 THEN
        SET message = CONCAT('timestamp out of range: expected 0..=8796093022207 ms since the epoch ',
            epoch_ms, ', found ', unix_ms - epoch_ms);
        SIGNAL SQLSTATE '22008' SET MESSAGE_TEXT = message;
    END IF;
    -- Never below the row just taken: a larger millisecond, or the last randomness grown.
    SET made = (unix_ms << 15) | randomness;
    IF made > taken THEN
        INSERT INTO ulid_flake_generator_state (state) VALUES (made);
    END IF;
    -- One row a statement: a delete by one key of the primary key locks that row alone, where
    -- one by a list of keys would lock the gaps before them too, and stall other inserts.
    DELETE FROM ulid_flake_generator_state WHERE state = own_row;
    DELETE FROM ulid_flake_generator_state WHERE state = taken;
    DELETE FROM ulid_flake_generator_state WHERE state = made;
    -- As often as this session holds it: a call killed while it held the lock left it held.
    REPEAT
        SET released = RELEASE_LOCK(lock_name);
    UNTIL NOT (released <=> 1) END REPEAT;
    RETURN made;
END;

-- The key of the namespace's generator for a clock reading (Unix ms) and a randomness field
-- whose maximum is field_max: ulid_flake_generate's step, with the server's clock and 32767.
CREATE OR REPLACE FUNCTION ulid_flake_make_key(namespace TEXT, clock_ms BIGINT, field_max BIGINT) RETURNS BIGINT
    NOT DETERMINISTIC READS SQL DATA
BEGIN
    DECLARE installed_id SMALLINT;
    DECLARE installed_epoch BIGINT;
    DECLARE state BIGINT;
    DECLARE message VARCHAR(512);
    -- Logged as a statement, the insert would run the trigger again on each replica, which
    -- would make keys of its own (MIXED logs the rows of a statement that calls SYSDATE).
    IF @@log_bin = 1 AND @@session.sql_log_bin = 1 AND @@session.binlog_format = 'STATEMENT' THEN
        SIGNAL SQLSTATE 'HY000' SET MESSAGE_TEXT =
            'binary log format STATEMENT: expected ROW or MIXED, found STATEMENT, under which each replica would make keys of its own';
    END IF;
    CALL ulid_flake_check_namespace(namespace);
    IF field_max IS NULL OR field_max NOT BETWEEN 0 AND 32767 THEN
        SET message = CONCAT('invalid field maximum: expected 0..=32767, found ',
            COALESCE(field_max, 'NULL'));
        SIGNAL SQLSTATE '22023' SET MESSAGE_TEXT = message;
    END IF;
    -- A NULL reading would compare as "not after the state" and go on from it unnoticed.
    IF clock_ms IS NULL THEN
        SIGNAL SQLSTATE '22004' SET MESSAGE_TEXT =
            'no clock reading: expected the server''s time in Unix ms, found NULL';
    END IF;
    SELECT g.scalability_id, g.epoch_ms INTO installed_id, installed_epoch
        FROM ulid_flake_generators g WHERE g.namespace = namespace;
    IF installed_id IS NULL THEN
        SET message = CONCAT('no generator in namespace ', QUOTE(namespace),
            ': expected one installed by ulid_flake_install_generator, found none');
        SIGNAL SQLSTATE '42704' SET MESSAGE_TEXT = message;
    END IF;
    SET state = ulid_flake_next_state(clock_ms, field_max, installed_epoch);
    RETURN (((state >> 15) - installed_epoch) << 20) | ((state & 32767) << 5) | installed_id;
END;

-- The Unix millisecond of a UTC time, past 2038 (UNIX_TIMESTAMP answers NULL after
-- 2038-01-19 03:14:07 UTC).
CREATE OR REPLACE FUNCTION ulid_flake_unix_ms(utc DATETIME(6)) RETURNS BIGINT
    DETERMINISTIC NO SQL
RETURN TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', utc) DIV 1000;

CREATE OR REPLACE FUNCTION ulid_flake_generate(namespace TEXT) RETURNS BIGINT
    NOT DETERMINISTIC READS SQL DATA
BEGIN
    DECLARE utc DATETIME(6);
    -- SYSDATE is read when the call runs (NOW() is the statement's start, which SET TIMESTAMP
    -- moves). Read in UTC, for the statement alone: the session's zone is left as it was, and
    -- neither a daylight-saving hour nor CONVERT_TZ's 2038 limit can shift the reading.
    SET STATEMENT time_zone = '+00:00' FOR SELECT SYSDATE(6) INTO utc;
    RETURN ulid_flake_make_key(namespace, ulid_flake_unix_ms(utc), 32767);
END;
