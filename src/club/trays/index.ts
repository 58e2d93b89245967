// Tray records (docs/club.md, "The path of a tray"): from an original play, from a dealing machine's PBN hand-record
// file; comparing a record with a table's hands (the tray doctor), and what the laws give for a fouled tray.
export { recordFromPlay, whyNoRecord, type PlayedDeal } from './record.js';
export { handDifferences, trayDoctor, trayDoctorReport, doctorLines, type HandDifference, type TrayDoctorReport } from './doctor.js';
export { fouledTrayOutcome, type TrayFault, type TrayOutcome } from './outcome.js';
export { recordsFromPbn, readHandRecords, type HandRecordOptions } from './hand-records.js';
