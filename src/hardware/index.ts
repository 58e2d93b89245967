// src/hardware: from serial bytes to TableEvents. Protocol codec, line splitter, the seat-reader
// driver (one bridge or several), seat map, decks and enrolment.
export * from './protocol.js';
export * from './line-splitter.js';
export * from './seat-map.js';
export * from './deck.js';
export * from './enrol.js';
export * from './bridge-driver.js';
export * from './tray-code.js';
export * from './emulator.js';
export * from './emulator-faults.js';
export * from './scanner-serial.js';
export * from './scanner-emulator.js';
export * from './pty.js';
