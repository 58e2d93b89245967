// One rule for club and table ids, wherever they are given: the table's config (src/config/schema.ts), the director's
// (src/club/director/config.ts) and the broker accounts (mosquitto/add-user.sh, which repeats these two patterns in
// bash; test/config/ids.test.ts keeps the three in step). A table's broker account is "table-<club>-<table>", split
// at the first "-": so a club id has no "-", and "bath-north" is refused everywhere alike ("bath_north" is fine).

/** A club id: 1-32 letters, digits or "_", starting with a letter or digit. */
export const CLUB_ID = '^[A-Za-z0-9][A-Za-z0-9_]{0,31}$';
/** The fix for a bad club id, after "must be the club's short id, e.g. \"ely\"; ". */
export const CLUB_ID_FIX = 'use 1-32 letters, digits or "_" (no "-": the tables\' broker accounts are "table-<club>-<table>"; write "bath_north", not "bath-north")';

/** A table id: 1-32 letters, digits, "_" or "-", starting with a letter or digit ("trays" and "club" are reserved). */
export const TABLE_ID = '^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$';
/** The fix for a bad table id. */
export const TABLE_ID_FIX = 'use 1-32 letters, digits, "_" or "-" (it becomes an MQTT topic level and part of the table\'s broker account)';
