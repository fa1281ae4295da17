/**
 * Turns whatever a tRPC call threw into a sentence for the person in front of the screen.
 * Input errors carry the server's flattened zod issues; engine refusals carry their own message.
 */
import { TRPCClientError } from "@trpc/client";

interface FlattenedZodError {
  formErrors: string[];
  fieldErrors: Record<string, string[] | undefined>;
}

function zodErrorOf(error: unknown): FlattenedZodError | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data: unknown = error.data;
  if (typeof data !== "object" || data === null || !("zodError" in data)) return null;
  const zodError = (data as { zodError: unknown }).zodError;
  return zodError && typeof zodError === "object" ? (zodError as FlattenedZodError) : null;
}

/** Per-field messages from a rejected input, keyed by field name, so forms can show them beside the field. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const zodError = zodErrorOf(error);
  if (!zodError) return {};
  const result: Record<string, string> = {};
  for (const [field, messages] of Object.entries(zodError.fieldErrors)) {
    if (messages && messages.length > 0) result[field] = messages.join("; ");
  }
  return result;
}

export function errorMessage(error: unknown): string {
  const zodError = zodErrorOf(error);
  if (zodError) {
    const parts = [
      ...zodError.formErrors,
      ...Object.entries(zodError.fieldErrors).flatMap(([field, messages]) => (messages ?? []).map((m) => (m.startsWith(field) ? m : `${field}: ${m}`))),
    ];
    if (parts.length > 0) return parts.join("; ");
  }
  if (error instanceof TRPCClientError) {
    // A network failure has no response at all; say so instead of "Failed to fetch".
    if (!error.data && /fetch|network/i.test(error.message)) return "The server could not be reached. Check your connection and try again.";
    return error.message;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Requests that cannot succeed by repeating them (not found, bad input, conflict) are not retried. */
export function isPermanentError(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false;
  const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
  return status !== undefined && status >= 400 && status < 500;
}
