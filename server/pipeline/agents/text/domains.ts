/** The business domains a text belongs to ("Payments and billing", "Scheduling and bookings"), by keyword. */

const DOMAIN_KEYWORDS: readonly (readonly [string, RegExp])[] = [
  ["Payments and billing", /\b(pay|pays|paid|paying|payments?|payouts?|bills?|billing|invoices?|checkout|wallets?|refunds?|subscriptions?|charges?|fees?|settlements?|settle|reconcil\w*)\b/i],
  ["Ordering and commerce", /\b(orders?|ordering|carts?|catalogs?|catalogues?|products?|purchases?|shop|shopping|stores?|inventory|merchants?|sellers?)\b/i],
  ["Mobility and logistics", /\b(rides?|trips?|drivers?|deliver\w*|shipments?|shipping|couriers?|routes?|routing|fleet|tracking|track|pick-?ups?|drop-?offs?)\b/i],
  ["Scheduling and bookings", /\b(book|books|booking|bookings|appointments?|reservations?|reserve|schedul\w*|calendars?|slots?|visits?)\b/i],
  ["Identity and access", /\b(log ?in|sign ?in|sign ?up|register|registration|accounts?|profiles?|roles?|permissions?|authenticat\w*|passwords?)\b/i],
  ["Notifications and messaging", /\b(notif\w*|e-?mails?|sms|messages?|messaging|chat|reminders?|alerts?)\b/i],
  ["Reporting and analytics", /\b(reports?|reporting|dashboards?|analytics|metrics?|statistics|insights?|kpis?|exports?|totals?)\b/i],
  ["Content and documents", /\b(documents?|files?|uploads?|content|articles?|media|photos?|images?|videos?)\b/i],
  ["Healthcare", /\b(patients?|doctors?|clinics?|medical|health|prescriptions?|nurses?)\b/i],
  ["Education", /\b(students?|courses?|teachers?|lessons?|grades?|exams?|classes)\b/i],
  ["Search and discovery", /\b(search|filter\w*|browse|recommend\w*|discover\w*)\b/i],
  ["Reviews and ratings", /\b(reviews?|ratings?|rate|stars)\b/i],
  ["Support and dispute resolution", /\b(disputes?|complaints?|tickets?|claims?|incidents?|help ?desk|escalat\w*)\b/i],
];

export function domainsIn(text: string): string[] {
  return DOMAIN_KEYWORDS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
}

/** The first business domain a text belongs to, used to group requirements into epics. */
export function primaryDomain(text: string): string | undefined {
  return domainsIn(text)[0];
}
