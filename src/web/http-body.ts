// Small pieces the terminals' HTTP servers share: a bounded request body, and a PIN compared in constant time.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The request body as text, or null when it is larger than `max` bytes (the rest is read and dropped). */
export function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= max) chunks.push(c);
    });
    req.on('end', () => resolve(size > max ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Whether a PIN as typed is the table's, compared in constant time. */
export function samePin(given: unknown, pin: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given.trim());
  const b = Buffer.from(pin);
  return a.length === b.length && timingSafeEqual(a, b);
}
