/**
 * Sending email: nodemailer over SMTP, configured by SMTP_URL (`smtp://user:pass@mail.example:587`, `smtps://...` for
 * TLS from the first byte; nodemailer upgrades a plain connection with STARTTLS when the server offers it) and
 * SMTP_FROM. Without SMTP_URL there is no mailer and the notifier writes no email. The deliverer calls `send` for each
 * row of the email outbox; a refusal the SMTP server says is final (a 5xx reply: no such mailbox, a sender it will
 * not relay for) is marked `permanent`, anything else (a 4xx reply, no connection, a timeout) is tried again later.
 */
import nodemailer from "nodemailer";

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message; rejects with a MailError otherwise. */
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

export class MailError extends Error {
  override name = "MailError";
  constructor(
    message: string,
    /** The SMTP server refused it for good: another attempt would be refused too. */
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

export interface SmtpOptions {
  /** SMTP_URL. */
  url: string;
  /** SMTP_FROM: the sender every email names. */
  from: string;
  /** How long connecting, the greeting and each reply may take. */
  timeoutMs: number;
}

export function smtpMailer(options: SmtpOptions): Mailer {
  const transport = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  });
  return {
    async send(email) {
      try {
        await transport.sendMail({ from: options.from, to: email.to, subject: email.subject, text: email.text });
      } catch (error) {
        const smtp = error as { responseCode?: unknown; response?: unknown; code?: unknown; message?: unknown };
        const code = typeof smtp.responseCode === "number" ? smtp.responseCode : undefined;
        const said = typeof smtp.response === "string" ? smtp.response : error instanceof Error ? error.message : String(error);
        const what = code !== undefined ? `the SMTP server answered ${said}` : `${typeof smtp.code === "string" ? `${smtp.code}: ` : ""}${said}`;
        throw new MailError(what, code !== undefined && code >= 500 && code < 600);
      }
    },
    close: () => transport.close(),
  };
}

/** SMTP_FROM's default: `Stitch <stitch@HOST>` with the base URL's host name, or `localhost` when that is an address. */
export function defaultSender(baseUrl: string): string {
  const host = new URL(baseUrl).hostname;
  const name = /^[\d.]+$/.test(host) || host.includes(":") || host.startsWith("[") ? "localhost" : host;
  return `Stitch <stitch@${name}>`;
}
