#!/usr/bin/env bash
# Manage tenace accounts on the club's Mosquitto: a password entry (hashed) and the account's ACL block.
# See mosquitto/README.md. Exit codes: 0 done, 64 usage, 65 bad name, 69 a needed tool is missing, 73 cannot write.
set -euo pipefail

PASSWD_FILE="${TENACE_PASSWD_FILE:-/etc/mosquitto/tenace/passwd}"
ACL_FILE="${TENACE_ACL_FILE:-/etc/mosquitto/tenace/acl}"
BASE="${TENACE_TOPIC_BASE:-tenace}"

usage() {
  cat >&2 <<'EOF'
usage: add-user.sh [-p PASSWD_FILE] [-a ACL_FILE] ROLE ...

  table CLUB TABLE        account "table-CLUB-TABLE": writes only tenace/CLUB/TABLE/#, reads its club's tray records
                          and released trays
  director NAME [CLUB]    reads everything (of one club); sends commands, tray records, round assignments and the
                          session topics (schedule, standings, released)
  room NAME [CLUB]        a room's bridge at the central broker (mosquitto/room.conf, remote_username NAME): sends
                          what its tables publish (status, state, event, director, director/state, director/event,
                          response/+, analysis) and its link state; reads what the director sends them (assignment,
                          request/+, tray records, session topics)
  spectator NAME          reads the public topics only (status, state, event of every table; a club session's
                          schedule, standings and released trays)
  vugraph NAME [CLUB]     a spectator who also reads each table's live double-dummy analysis (analysis, config
                          feed.analysis): it names unplayed cards, so never give it to a player's screen
  remove NAME             delete the account and its ACL block

The password comes from $TENACE_MQTT_PASSWORD, else it is asked for on the terminal (never on the command line,
where other users could read it in the process list).
Files: $TENACE_PASSWD_FILE (default /etc/mosquitto/tenace/passwd), $TENACE_ACL_FILE (default /etc/mosquitto/tenace/acl).
Reload the broker afterwards: systemctl reload mosquitto (or kill -HUP its pid).
EOF
  exit 64
}

while getopts 'p:a:h' opt; do
  case "$opt" in
    p) PASSWD_FILE="$OPTARG" ;;
    a) ACL_FILE="$OPTARG" ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
ROLE="$1"; shift

die() { echo "add-user.sh: $1" >&2; exit "${2:-65}"; }

# Club ids have no hyphen, so "table-CLUB-TABLE" names exactly one table: (a-b, c) and (a, b-c) cannot collide.
# The same two rules as the configs (src/config/ids.ts; test/config/ids.test.ts keeps them in step).
check_club()  { [[ "$1" =~ ^[A-Za-z0-9][A-Za-z0-9_]{0,31}$ ]] || die "club \"$1\": use 1-32 letters, digits or _, starting with a letter or digit (no hyphen: it separates club and table in the username; write \"bath_north\", not \"bath-north\")"; }
check_table() { [[ "$1" =~ ^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$ ]] && [ "$1" != trays ] && [ "$1" != club ] || die "table \"$1\": use 1-32 letters, digits, _ or -, starting with a letter or digit (not \"trays\" or \"club\", which hold the tray records and the session topics)"; }
check_user()  { [[ "$1" =~ ^[A-Za-z0-9_.-]{1,64}$ ]] || die "user \"$1\": use 1-64 letters, digits, _ . or -"; }

read_password() {
  if [ -n "${TENACE_MQTT_PASSWORD:-}" ]; then
    PASSWORD="$TENACE_MQTT_PASSWORD"
  elif [ -t 0 ]; then
    local again
    read -r -s -p "Password for $1: " PASSWORD; echo >&2
    read -r -s -p "Again: " again; echo >&2
    [ "$PASSWORD" = "$again" ] || die "the passwords differ"
  else
    die "no password: set TENACE_MQTT_PASSWORD or run on a terminal" 64
  fi
  [ ${#PASSWORD} -ge 8 ] || die "the password must have at least 8 characters"
  case "$PASSWORD" in *$'\n'*|*:*) die "the password must not contain a newline or a colon";; esac
}

# One hashed line "user:$7$..." (PBKDF2-SHA512, Mosquitto 2 format). mosquitto_passwd -U hashes a plain file in
# place, so the password never appears in argv; without mosquitto_passwd (a broker in a container), node does it.
hash_line() {
  local user="$1" tmp
  tmp="$(umask 077; mktemp)"
  printf '%s:%s\n' "$user" "$PASSWORD" > "$tmp"
  if command -v mosquitto_passwd >/dev/null 2>&1 && [ -z "${TENACE_NO_MOSQUITTO_PASSWD:-}" ]; then
    mosquitto_passwd -U "$tmp" >/dev/null || { rm -f "$tmp"; die "mosquitto_passwd -U failed" 69; }
    cat "$tmp"
  elif command -v node >/dev/null 2>&1; then
    TENACE_PLAIN="$tmp" node -e '
      const fs = require("fs"), crypto = require("crypto");
      const line = fs.readFileSync(process.env.TENACE_PLAIN, "utf8").replace(/\n$/, "");
      const i = line.indexOf(":"), user = line.slice(0, i), pass = line.slice(i + 1);
      const salt = crypto.randomBytes(12), iterations = 101;
      const hash = crypto.pbkdf2Sync(pass, salt, iterations, 64, "sha512");
      process.stdout.write(`${user}:$7$${iterations}$${salt.toString("base64")}$${hash.toString("base64")}\n`);
    ' || { rm -f "$tmp"; die "node could not hash the password" 69; }
  else
    rm -f "$tmp"; die "neither mosquitto_passwd nor node is installed: install mosquitto (or nodejs)" 69
  fi
  rm -f "$tmp"
}

ensure_files() {
  local f d
  for f in "$PASSWD_FILE" "$ACL_FILE"; do
    d="${f%/*}"; [ "$d" = "$f" ] && d=.
    [ -d "$d" ] || mkdir -p "$d" || die "cannot create $d" 73
    [ -e "$f" ] || (umask 027; : > "$f") || die "cannot create $f" 73
  done
}

# Rewrite a file through a temporary copy next to it, so a failure never leaves it half written.
rewrite() {
  local file="$1" tmp
  tmp="$(mktemp "$file.XXXXXX")"
  cat > "$tmp"
  chmod --reference="$file" "$tmp" 2>/dev/null || chmod 640 "$tmp"
  chown --reference="$file" "$tmp" 2>/dev/null || true
  mv -f "$tmp" "$file"
}

drop_acl_block() {
  awk -v begin="# >>> tenace account $1" -v end="# <<< tenace account $1" '
    $0 == begin { skip = 1; next }
    $0 == end   { skip = 0; next }
    !skip' "$ACL_FILE" | rewrite "$ACL_FILE"
}

set_account() {
  local user="$1" block="$2" line
  read_password "$user"
  line="$(hash_line "$user")"
  ensure_files
  { awk -v u="$user" -F: '$1 != u' "$PASSWD_FILE"; printf '%s\n' "$line"; } | rewrite "$PASSWD_FILE"
  drop_acl_block "$user"
  { cat "$ACL_FILE"; printf '# >>> tenace account %s\n%s# <<< tenace account %s\n' "$user" "$block" "$user"; } | rewrite "$ACL_FILE"
  echo "account $user: password set, ACL block written to $ACL_FILE; reload mosquitto" >&2
}

case "$ROLE" in
  table)
    [ $# -eq 2 ] || usage
    check_club "$1"; check_table "$2"
    user="table-$1-$2"
    set_account "$user" "user $user
topic readwrite $BASE/$1/$2/#
topic read $BASE/$1/trays/#
topic read $BASE/$1/club/+/released
"
    ;;
  director)
    [ $# -ge 1 ] && [ $# -le 2 ] || usage
    check_user "$1"
    club="${2:-+}"
    [ "$club" = "+" ] || check_club "$club"
    set_account "$1" "user $1
topic read $BASE/$club/#
topic write $BASE/$club/+/request/#
topic write $BASE/$club/+/assignment
topic write $BASE/$club/trays/#
topic write $BASE/$club/club/#
"
    ;;
  room)
    [ $# -ge 1 ] && [ $# -le 2 ] || usage
    check_user "$1"
    club="${2:-+}"
    [ "$club" = "+" ] || check_club "$club"
    # The "out" and "in" lines of room.conf, and nothing else: a room cannot forge assignments, tray records or
    # standings. The bridge publishes its link state ("notifications true") at the centre under $SYS.
    block="user $1
"
    for t in status state event director director/state director/event 'response/+' analysis; do block+="topic write $BASE/$club/+/$t
"; done
    block+="topic read $BASE/$club/+/assignment
topic read $BASE/$club/+/request/+
topic read $BASE/$club/trays/#
topic read $BASE/$club/club/#
topic write \$SYS/broker/connection/+/state
"
    set_account "$1" "$block"
    ;;
  spectator)
    [ $# -eq 1 ] || usage
    check_user "$1"
    # No topic lines: the "pattern read" lines at the top of the ACL give every account the public topics.
    set_account "$1" "user $1
"
    ;;
  vugraph)
    [ $# -ge 1 ] && [ $# -le 2 ] || usage
    check_user "$1"
    club="${2:-+}"
    [ "$club" = "+" ] || check_club "$club"
    # The public topics come from the "pattern read" lines; the analysis topic is read by these accounts only. A
    # table publishes it only once its embargo lets the deal out, but it names the cards still held: no player's.
    set_account "$1" "user $1
topic read $BASE/$club/+/analysis
"
    ;;
  remove)
    [ $# -eq 1 ] || usage
    check_user "$1"
    ensure_files
    awk -v u="$1" -F: '$1 != u' "$PASSWD_FILE" | rewrite "$PASSWD_FILE"
    drop_acl_block "$1"
    echo "account $1 removed; reload mosquitto" >&2
    ;;
  *) usage ;;
esac
