const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Layout chunks in Go's matching order (longer spellings before their prefixes). */
const CHUNK =
  /January|Jan|Monday|Mon|MST|2006|002|__2|_2|01|02|03|04|05|06|15|1|2|3|4|5|PM|pm|[-Z]07:00:00|[-Z]070000|[-Z]07:00|[-Z]0700|[-Z]07|[.,](?:0+|9+)(?!\d)/g;

const pad = (n: number, width: number, fill = '0') => String(n).padStart(width, fill);

/** `minutes` east of UTC spelled as the zone chunk (`Z07:00`, `-0700`, …) asks. */
function zoneOffset(minutes: number, chunk: string): string {
  if (chunk.startsWith('Z') && minutes === 0) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const hh = pad(Math.floor(Math.abs(minutes) / 60), 2);
  const mm = pad(Math.abs(minutes) % 60, 2);
  const shape = chunk.slice(1);
  if (shape === '07:00:00') return `${sign}${hh}:${mm}:00`;
  if (shape === '070000') return `${sign}${hh}${mm}00`;
  if (shape === '07:00') return `${sign}${hh}:${mm}`;
  if (shape === '0700') return `${sign}${hh}${mm}`;
  return `${sign}${hh}`;
}

function zoneName(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  if (minutes === 0) return 'UTC';
  const name = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })
    .formatToParts(date)
    .find((p) => p.type === 'timeZoneName');
  return name?.value ?? zoneOffset(minutes, '-0700');
}

function dayOfYear(date: Date): number {
  return (
    Math.floor(
      (Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) - Date.UTC(date.getFullYear(), 0, 1)) / 86_400_000,
    ) + 1
  );
}

function fraction(date: Date, chunk: string): string {
  const digits = chunk.length - 1;
  const text = pad(date.getMilliseconds(), 3).padEnd(9, '0').slice(0, digits);
  if (chunk[1] === '0') return chunk[0] + text;
  const trimmed = text.replace(/0+$/, '');
  return trimmed ? chunk[0] + trimmed : '';
}

/**
 * Formats `date` in the server's local zone with a Go layout (the reference time
 * `Mon Jan 2 15:04:05 MST 2006` spelled as wanted); anything that is not a layout chunk is literal.
 */
export function formatGoTime(date: Date, layout: string): string {
  const h = date.getHours();
  return layout.replace(CHUNK, (chunk) => {
    switch (chunk) {
      case 'January':
        return MONTHS[date.getMonth()] as string;
      case 'Jan':
        return (MONTHS[date.getMonth()] as string).slice(0, 3);
      case 'Monday':
        return DAYS[date.getDay()] as string;
      case 'Mon':
        return (DAYS[date.getDay()] as string).slice(0, 3);
      case 'MST':
        return zoneName(date);
      case '2006':
        return pad(date.getFullYear(), 4);
      case '06':
        return pad(date.getFullYear() % 100, 2);
      case '01':
        return pad(date.getMonth() + 1, 2);
      case '1':
        return String(date.getMonth() + 1);
      case '02':
        return pad(date.getDate(), 2);
      case '2':
        return String(date.getDate());
      case '_2':
        return pad(date.getDate(), 2, ' ');
      case '002':
        return pad(dayOfYear(date), 3);
      case '__2':
        return pad(dayOfYear(date), 3, ' ');
      case '15':
        return pad(h, 2);
      case '03':
        return pad(h % 12 || 12, 2);
      case '3':
        return String(h % 12 || 12);
      case '04':
        return pad(date.getMinutes(), 2);
      case '4':
        return String(date.getMinutes());
      case '05':
        return pad(date.getSeconds(), 2);
      case '5':
        return String(date.getSeconds());
      case 'PM':
        return h >= 12 ? 'PM' : 'AM';
      case 'pm':
        return h >= 12 ? 'pm' : 'am';
      default:
        return chunk[0] === '.' || chunk[0] === ','
          ? fraction(date, chunk)
          : zoneOffset(-date.getTimezoneOffset(), chunk);
    }
  });
}

/**
 * RFC 3339 in the local zone, whole seconds (`2006-01-02T15:04:05Z07:00`). Every issued
 * credential formats two of these: one zone lookup and the UTC formatter of the shifted time,
 * instead of a zone lookup per field.
 */
export function rfc3339(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const local = new Date(date.getTime() + minutes * 60_000).toISOString().slice(0, 19);
  return local + zoneOffset(minutes, 'Z07:00');
}
