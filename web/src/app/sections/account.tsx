/** People, API tokens, the audit trail, subscriptions, policies and my settings: loaded when one is first opened (web/src/app/routes.tsx). */
import { useAccounts } from "../../features/people/api/accounts";
import { AuditPage } from "../../features/audit/components/AuditPage";

export { PeoplePage } from "../../features/people/components/PeoplePage";
export { TokensPage } from "../../features/people/components/TokensPage";
export { SettingsPage } from "../../features/notifications/components/SettingsPage";
export { SubscriptionsPage } from "../../features/notifications/components/SubscriptionsPage";
export { PolicyPage } from "../../features/policy/components/PolicyPage";

/** The audit trail is filtered by person: the people come from the people feature. */
export function AuditTrailPage() {
  const accounts = useAccounts();
  return <AuditPage people={accounts.data ?? []} />;
}
