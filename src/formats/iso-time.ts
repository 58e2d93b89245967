// A time as Date.prototype.toISOString writes it ("2026-12-07T15:32:10.123Z"), computed from the milliseconds alone.
// Why not toISOString: its first call costs a process about 0.8 MB of resident memory (what V8 touches to format a
// date), and the table daemon stamps its log lines and journal events with the time (issue 20: 50 MB on a Pi Zero 2 W).

const DAY_MS = 86_400_000;

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** The UTC time `ms` (milliseconds since 1970, as Date.now() gives) in ISO 8601 with milliseconds and a Z. */
export function isoTime(ms: number): string {
  const t = Math.trunc(ms);
  const days = Math.floor(t / DAY_MS);
  // Outside years 0-9999 toISOString writes a signed six-digit year; no clock of ours is there.
  if (!Number.isFinite(t) || days < -719_528 || days > 2_932_896) return new Date(t).toISOString();
  let rest = t - days * DAY_MS;
  // The civil date of a day count (Howard Hinnant's days-to-civil): eras of 400 years, each year from 1 March.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1_460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const min = Math.floor(rest / 60_000);
  rest -= min * 60_000;
  const s = Math.floor(rest / 1000);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(h, 2)}:${pad(min, 2)}:${pad(s, 2)}.${pad(rest - s * 1000, 3)}Z`;
}

/** Now, as isoTime writes it. */
export function isoNow(): string {
  return isoTime(Date.now());
}
