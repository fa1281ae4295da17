/** Whether a text sets a quality target (speed, scale, uptime, security, compliance, ...), and which quality it is about. */

const QUALITY_PATTERN =
  /\b(\d[\d,.]*\s*(?:k\b|ms\b|milliseconds|seconds|secs?\b|minutes|%|percent|concurrent|requests|users|rps|tps)|concurrent|latency|response times?|uptime|availab(?:le|ility)|24\/7|scal(?:e|able|ability)|performan(?:t|ce)|secure|security|encrypt\w*|gdpr|hipaa|pci|complian\w*|accessib\w*|wcag|audit\w*|backups?|disaster|recover\w*|offline|reliab\w*|throughput|peak|fast|quickly|privacy|resilien\w*|observab\w*|localiz\w*|multi-?language|i18n)\b/i;

export function isQualityText(text: string): boolean {
  return QUALITY_PATTERN.test(text);
}

/** The quality a sentence is about, as the title of a non-functional requirement. */
export function qualityCategory(text: string): string {
  const lower = text.toLowerCase();
  if (/(concurrent|scal|peak|throughput|\d\s*k\b|users\b)/.test(lower)) return "Scalability";
  if (/(latency|response time|ms\b|millisecond|second|fast|quickly|performan)/.test(lower)) return "Performance";
  if (/(uptime|availab|24\/7|reliab|resilien|%|percent)/.test(lower)) return "Availability";
  if (/(gdpr|hipaa|pci|complian|privacy)/.test(lower)) return "Compliance and privacy";
  if (/(secure|security|encrypt)/.test(lower)) return "Security";
  if (/(audit)/.test(lower)) return "Auditability";
  if (/(accessib|wcag)/.test(lower)) return "Accessibility";
  if (/(backup|disaster|recover)/.test(lower)) return "Recoverability";
  if (/(offline)/.test(lower)) return "Offline operation";
  if (/(observab)/.test(lower)) return "Observability";
  if (/(locali|language|i18n)/.test(lower)) return "Localization";
  return "Quality";
}
