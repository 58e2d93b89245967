// Placeholder until the director page is written (issue 7).
import type { Server } from 'node:http';
import type { DirectorSnapshot } from '../types.js';

export interface DirectorWebOptions {
  host: string;
  port: number;
  /** The latest snapshot, or null before the first. */
  snapshot(): DirectorSnapshot | null;
  /** Call `fn` on every new snapshot; returns the unsubscribe. */
  subscribe(fn: (s: DirectorSnapshot) => void): () => void;
  /** The exports, served as downloads. */
  exports?: { pbn(): string; usebio(): string; csv(): string };
}

export interface DirectorWeb { url: string; server: Server; close(): Promise<void> }

/** Serve the director page (tables × rounds grid, alerts, tray doctor, standings) and its live updates. */
export async function startDirectorWeb(_opts: DirectorWebOptions): Promise<DirectorWeb> {
  throw new Error('director page: not written yet');
}
