// The daemon's settings: one JSON schema (defaults, validation, the env-override map) and the TypeScript type of a
// validated config. The loader (./load.ts) and the docs both read this object, so it is the single place a setting
// is declared.
//
// Besides standard JSON-schema keywords, each leaf may carry `fix`: the sentence shown when its value is wrong. It is
// registered with ajv as an annotation keyword, so it never affects validation.
import type { ScoreOptions } from '../laws/score/index.js';
import { variantNames } from '../laws/variants.js';
import { CLUB_ID, CLUB_ID_FIX, TABLE_ID, TABLE_ID_FIX } from './ids.js';

export type SeatName = 'N' | 'E' | 'S' | 'W';
export type FsyncMode = 'always' | 'group';
export type Embargo = 'live' | 'deal-end' | 'tray-complete';
export type ScannerMode = 'serial' | 'hid' | 'none';
export type Terminator = 'cr' | 'lf' | 'crlf' | 'any' | 'none';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface ReaderConfig {
  /** Reader index on the bridge, 0..7 (PROTOCOL.md `readers`). */
  reader: number;
  /** The seat whose play zone this antenna sits under. */
  seat: SeatName;
}

export interface BridgeConfig {
  id: string;
  /** Serial device; /dev/serial/by-id/... or a udev symlink survives re-plugging, /dev/ttyACM0 does not. */
  port: string;
  readers: ReaderConfig[];
}

export interface ScannerConfig {
  mode: ScannerMode;
  port?: string;
  baudRate: number;
  vendorId?: number;
  productId?: number;
  terminator: Terminator;
  interByteTimeoutMs: number;
}

/** A validated config: every default filled in, relative file paths resolved against the config file's folder. */
export interface TenaceConfig {
  /** `trays` and `events` are absent unless set; absent means true (they take effect only with a `session`). */
  club: { id: string; trays?: boolean; events?: boolean };
  table: { id: string };
  session?: string;
  variant: string;
  /** The score of the social games (issue 9); absent means the seed's defaults. Checked against `variant` by the loader. */
  score?: ScoreOptions;
  journal: { dir: string; fsync: FsyncMode; groupCommitMs: number };
  mqtt: {
    url: string;
    username?: string;
    password?: string;
    passwordFile?: string;
    ca?: string;
    cert?: string;
    key?: string;
    rejectUnauthorized: boolean;
    clientId?: string;
    keepalive: number;
    baseTopic: string;
    /** 4 for a broker without MQTT 5 (an embedded aedes); default 5 (4 with `url: embedded`). */
    protocolVersion?: 4 | 5;
  };
  /** `analysis`: the spectators' live double-dummy analysis on the table's spectator-only `analysis` topic (issue 21). */
  feed: { embargo: Embargo; director: boolean; analysis: boolean };
  hardware: { bridges: BridgeConfig[]; scanner: ScannerConfig; decks: string[] };
  http: { port: number; host: string };
  /** The table terminal (web/terminal): the table's PIN (absent: one is made at each start and logged) and the tries allowed. */
  terminal: { pin?: string; tries: number };
  log: { level: LogLevel };
}

// Ids become MQTT topic levels (DESIGN §6), so they must not contain "/", "+" or "#".
const TOPIC_ID = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$';
const TOPIC_ID_FIX = 'use 1-64 letters, digits, "-", "_" or "." (it becomes an MQTT topic level)';
// Session names become file names in the journal folder.
const SESSION = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$';

const pathString = (what: string) => ({ type: 'string', minLength: 1, fix: `must be the path of ${what}` });

/** The JSON schema of the config file (ajv draft-07, with the `fix` annotation keyword). */
export const configSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['club', 'table'],
  properties: {
    club: {
      type: 'object',
      additionalProperties: false,
      required: ['id'],
      description: 'the club this table belongs to',
      properties: {
        id: { type: 'string', pattern: CLUB_ID, fix: `must be the club's short id, e.g. "ely"; ${CLUB_ID_FIX}` },
        // No defaults here (absent means true), so a config without a club session reads back as it was written.
        trays: {
          type: 'boolean',
          description: 'with a session: read the tray records and this table\'s round assignment, start each scanned tray\'s deal from its record, alert the director to a wrong tray (default true)',
          fix: 'must be true or false: true (the default) starts a scanned tray\'s deal from the club\'s record and checks the tray against the round assignment; false leaves deals to start-deal commands',
        },
        events: {
          type: 'boolean',
          description: 'with a session: send every journal event in full to the director on <table>/director/event (default true)',
          fix: 'must be true or false: true (the default) sends every journal event to the club director, who scores the session from them; false only for a table outside a club',
        },
      },
    },
    table: {
      type: 'object',
      additionalProperties: false,
      required: ['id'],
      description: 'this table',
      properties: {
        id: { type: 'string', pattern: TABLE_ID, fix: `must be the table's id within the club, e.g. "7"; ${TABLE_ID_FIX}` },
      },
    },
    session: {
      type: 'string',
      pattern: SESSION,
      fix: 'must be a session name such as "2025-03-14-evening": letters, digits, "-", "_" or ".", at most 100',
    },
    variant: {
      type: 'string',
      enum: variantNames(),
      default: 'duplicate-whist',
    },
    // No default: absent, each game keeps the seed's rules, and a config without it reads back as it was written.
    // Which settings suit which variant is checked in ./load.ts (crossChecks), as a schema cannot say it clearly.
    score: {
      type: 'object',
      additionalProperties: false,
      description: 'the score the table keeps in the social games (whist, english-whist, prussian-whist, favourite-whist, the dummy games, mort, humbug, thirteen-and-the-odd); absent, the seed\'s rules',
      properties: {
        gamePoints: {
          type: 'integer', enum: [5, 7, 10],
          fix: 'must be 5, 7 or 10, the points to game ("the ordinary 5, 7 or 10 point whist", seed 001); the default is 5, 7 in American whist (variant whist) and 10 in the progressive variation; only with a social game\'s variant',
        },
        progressive: {
          type: 'boolean',
          fix: 'must be true or false: true scores Favourite whist by its progressive variation (tricks worth S 1, C 2, D 3, H 4; ten to game; 10 the rubber\'s bonus); only with variant favourite-whist',
        },
        continuousDummy: {
          type: 'boolean',
          fix: 'must be true or false: true when one player takes dummy throughout and concedes a point each rubber (English Dummy); only with variant english-dummy',
        },
        players: {
          type: 'integer', enum: [3, 4],
          fix: 'must be 3 or 4, the players at the Mort table: three games to the tournée with three, four with four; only with variant mort',
        },
        honoursWithoutCall: {
          type: 'boolean',
          fix: 'must be true or false: true scores the honours the table saw without their being called (English Law 7 wants them called); only in a game that counts honours',
        },
      },
    },
    journal: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        dir: { ...pathString('the folder that holds the session journals'), default: '/var/lib/tenace/journal' },
        fsync: { type: 'string', enum: ['always', 'group'], default: 'always' },
        groupCommitMs: {
          type: 'integer', minimum: 0, maximum: 1000, default: 10,
          fix: 'must be a whole number of milliseconds from 0 to 1000',
        },
      },
    },
    mqtt: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        url: {
          type: 'string',
          pattern: '^(embedded|(mqtts?|wss?|tcp|ssl)://[^\\s]+)$',
          default: 'mqtt://127.0.0.1:1883',
          fix: 'must be a broker URL such as "mqtt://127.0.0.1:1883", "mqtts://broker:8883" or "wss://host/mqtt", or "embedded" for the built-in broker',
        },
        username: { type: 'string', minLength: 1, fix: 'must be the MQTT user name (text; quote it if it looks like a number)' },
        password: { type: 'string', minLength: 1, fix: 'must be text; quote it if it looks like a number, or use passwordFile' },
        passwordFile: pathString('a file whose first line is the MQTT password'),
        ca: pathString('a PEM file with the CA certificate(s) that signed the broker\'s certificate'),
        cert: pathString('a PEM client certificate'),
        key: pathString('the PEM private key of the client certificate'),
        rejectUnauthorized: { type: 'boolean', default: true, fix: 'must be true or false; leave it true outside a lab' },
        clientId: { type: 'string', minLength: 1, maxLength: 128, fix: 'must be 1-128 characters (default: tenace-<club>-<table>)' },
        keepalive: { type: 'integer', minimum: 0, maximum: 65535, default: 30, fix: 'must be a whole number of seconds from 0 to 65535' },
        protocolVersion: { type: 'integer', enum: [4, 5], fix: 'must be 5 (MQTT 5, the default) or 4 for a broker that speaks only MQTT 3.1.1' },
        baseTopic: {
          type: 'string',
          pattern: '^[^/+#\\s]+(/[^/+#\\s]+)*$',
          default: 'tenace',
          fix: 'must be one or more topic levels without "+", "#", spaces or a leading or trailing "/", e.g. "tenace"',
        },
      },
    },
    feed: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        // The safe default: a card played here is an unplayed card for every table that has still to play the tray
        // (DESIGN §6), so public topics hold it back until the club layer says the tray is complete.
        embargo: { type: 'string', enum: ['live', 'deal-end', 'tray-complete'], default: 'tray-complete' },
        director: { type: 'boolean', default: true, fix: 'must be true or false' },
        // Off by default: it needs libdds0, and the topic must be given to spectators' accounts only (role vugraph).
        analysis: {
          type: 'boolean', default: false,
          description: 'publish, after each card, the double-dummy analysis (what each side can still take, each legal card\'s cost) on the spectator-only <table>/analysis topic, once the embargo lets the deal out; needs libdds0 (default false)',
          fix: 'must be true or false: true publishes the live double-dummy analysis for spectators (mosquitto/add-user.sh vugraph; needs libdds0), false (the default) does not',
        },
      },
    },
    hardware: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        bridges: {
          type: 'array',
          default: [],
          fix: 'must be a list of bridges, each with id, port and readers',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'port', 'readers'],
            properties: {
              id: { type: 'string', pattern: TOPIC_ID, fix: `must name the bridge, e.g. "under-table"; ${TOPIC_ID_FIX}` },
              port: {
                type: 'string', minLength: 1,
                fix: 'must be the serial device of the bridge, preferably /dev/serial/by-id/... or /dev/tenace-bridge-...',
              },
              readers: {
                type: 'array',
                minItems: 1,
                fix: 'must list the bridge\'s readers, each as { reader: 0, seat: N }',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['reader', 'seat'],
                  properties: {
                    reader: { type: 'integer', minimum: 0, maximum: 7, fix: 'must be the reader index on the bridge, 0 to 7' },
                    seat: { type: 'string', enum: ['N', 'E', 'S', 'W'] },
                  },
                },
              },
            },
          },
        },
        scanner: {
          type: 'object',
          additionalProperties: false,
          default: {},
          properties: {
            mode: { type: 'string', enum: ['serial', 'hid', 'none'], default: 'none' },
            port: { type: 'string', minLength: 1, fix: 'must be the scanner\'s device: /dev/tenace-scanner in serial mode, /dev/tenace-scanner-hid in hid mode' },
            baudRate: { type: 'integer', minimum: 1, default: 9600, fix: 'must be a positive whole number, e.g. 9600' },
            vendorId: { type: 'integer', minimum: 0, maximum: 65535, fix: 'must be the USB vendor id, e.g. 0x05e0 (see lsusb)' },
            productId: { type: 'integer', minimum: 0, maximum: 65535, fix: 'must be the USB product id, e.g. 0x1200 (see lsusb)' },
            // any (the serial driver's own default) ends a scan at CR, LF or CR LF, whatever suffix the scanner is set to.
            terminator: { type: 'string', enum: ['cr', 'lf', 'crlf', 'any', 'none'], default: 'any' },
            interByteTimeoutMs: {
              type: 'integer', minimum: 1, maximum: 10000, default: 50,
              fix: 'must be a whole number of milliseconds from 1 to 10000',
            },
          },
        },
        decks: {
          type: 'array',
          default: [],
          items: pathString('a deck file (tag UID to card)'),
          fix: 'must be a list of deck files',
        },
      },
    },
    http: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        port: { type: 'integer', minimum: 0, maximum: 65535, default: 8080, fix: 'must be a TCP port from 0 to 65535 (0 picks a free one)' },
        host: { type: 'string', minLength: 1, default: '0.0.0.0', fix: 'must be an address to listen on, e.g. "0.0.0.0" or "127.0.0.1"' },
      },
    },
    terminal: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        pin: { type: 'string', pattern: '^[0-9]{4,8}$', fix: 'must be 4 to 8 digits in quotes, e.g. pin: "4821" (leave it out and the daemon makes one at each start and logs it)' },
        tries: { type: 'integer', minimum: 1, maximum: 20, default: 5, fix: 'must be the wrong PINs allowed before the terminal locks, 1 to 20' },
      },
    },
    log: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        level: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
      },
    },
  },
} as const;

/** Config fields holding file paths, resolved against the config file's folder when relative. */
export const PATH_FIELDS: readonly (readonly string[])[] = [
  ['journal', 'dir'],
  ['mqtt', 'passwordFile'],
  ['mqtt', 'ca'],
  ['mqtt', 'cert'],
  ['mqtt', 'key'],
  ['hardware', 'decks'],
];
