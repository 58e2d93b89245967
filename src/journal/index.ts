// The journal: the table's durable source of truth, and the MQTT outbox's bookmark.
export { Journal, JournalError, type JournalOptions, type JournalStats, type JournalFs, type SessionInfo, type UnstampedEvent } from './journal.js';
export { DeliveryMark, DELIVERED_EXT } from './delivery-mark.js';
export { parseJournal, readJournalFile, SESSION_EXT, type JournalFileContents } from './file.js';
