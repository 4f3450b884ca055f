// The PostgreSQL notification channel on which a write that changed a campaign's public funding
// names the campaign key (pg_notify, delivered to every replica's LISTEN when it commits).
export const FUNDING_CHANGED_CHANNEL = "encore_funding_changed";
