/**
 * Timestamps in the one text form the service stores and answers (`2025-01-31T12:00:00.000Z`, what
 * `Date#toISOString` writes for years 0 to 9999), written and read without V8's date formatter and
 * parser. `toISOString` formats through seven `snprintf` calls, a visible cost of a search page, and
 * every statement that binds a time would pay it once more.
 */

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * `new Date(ms).toISOString()`, for years 0 to 9999 (others go to it, and so does an invalid time, which
 * it refuses with the same RangeError), without its `snprintf` calls. Civil date from days after Howard
 * Hinnant's `civil_from_days`.
 */
export function isoTimestamp(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999 || !Number.isFinite(ms)) return new Date(ms).toISOString();
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const inDay = ms - days * 86_400_000;
  const millis = inDay % 1000;
  const seconds = Math.floor(inDay / 1000);
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}T${pad2(Math.floor(seconds / 3600))}:${pad2(
    Math.floor(seconds / 60) % 60,
  )}:${pad2(seconds % 60)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

const STORED_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const twoDigits = (s: string, at: number): number => (s.charCodeAt(at) - 48) * 10 + s.charCodeAt(at + 1) - 48;
const threeDigits = (s: string, at: number): number => (s.charCodeAt(at) - 48) * 100 + twoDigits(s, at + 1);

/** Whether `v` is in the stored form and names a real time (every field in range: no day rolls over). */
export function isStoredTimestamp(v: string): boolean {
  if (v.length !== 24 || !STORED_TIMESTAMP.test(v)) return false;
  const month = twoDigits(v, 5);
  const day = twoDigits(v, 8);
  if (month < 1 || month > 12 || day < 1 || twoDigits(v, 11) > 23 || twoDigits(v, 14) > 59 || twoDigits(v, 17) > 59)
    return false;
  return day <= 28 || day <= daysInMonth(twoDigits(v, 0) * 100 + twoDigits(v, 2), month);
}

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Whether `text` starts with a `YYYY-MM-DD` that names a real day. V8's parser rolls an impossible day
 * over (`2026-02-30` is 2 March), so input read by it is checked with this first.
 */
export function startsWithRealDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return false;
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(twoDigits(text, 0) * 100 + twoDigits(text, 2), month)
  );
}

/**
 * `new Date(text).getTime()`: a value in the stored form is read field by field (days from the civil date
 * after Hinnant's `days_from_civil`), anything else by V8's parser.
 */
export function timestampMs(text: string): number {
  if (!isStoredTimestamp(text)) return new Date(text).getTime();
  const month = twoDigits(text, 5);
  const y = twoDigits(text, 0) * 100 + twoDigits(text, 2) - (month <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + twoDigits(text, 8) - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  const days = era * 146_097 + doe - 719_468;
  const seconds = twoDigits(text, 11) * 3600 + twoDigits(text, 14) * 60 + twoDigits(text, 17);
  return days * 86_400_000 + seconds * 1000 + threeDigits(text, 20);
}
