const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

export function formatTime(iso: string): string {
  return timeFormat.format(new Date(iso));
}

export function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}

/** "5 minutes ago"; falls back to the date for anything older than a week. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return "just now";
  if (abs < 3600) return relative.format(Math.round(seconds / 60), "minute");
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), "hour");
  if (abs < 7 * 86_400) return relative.format(Math.round(seconds / 86_400), "day");
  return dateTimeFormat.format(new Date(iso));
}

const dayMs = 86_400_000;
const startOfDay = (at: Date) => new Date(at.getFullYear(), at.getMonth(), at.getDate()).getTime();

/**
 * A moment as people say it from today: "10:02" today, "yesterday 10:02", "tomorrow 10:00", and the date with the
 * time on any other day ("Waiting since 10:02, due tomorrow 10:00").
 */
export function formatDayTime(iso: string, now: number = Date.now()): string {
  const at = new Date(iso);
  const days = Math.round((startOfDay(at) - startOfDay(new Date(now))) / dayMs);
  if (days === 0) return formatTime(iso);
  if (Math.abs(days) === 1) return `${relative.format(days, "day")} ${formatTime(iso)}`;
  return dateTimeFormat.format(at);
}
