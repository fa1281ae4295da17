/** The notifications' refusals: a subscription that does not exist, a URL or a caller that cannot have what it asks. */
import { Refusal } from "../lib/refusal";

export type NotificationErrorCode = "bad_request" | "not_found";

export class NotificationError extends Refusal<NotificationErrorCode> {
  override name = "NotificationError";
}
