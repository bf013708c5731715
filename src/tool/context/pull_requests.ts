/** One pull request subscribe_pr follows. */
export interface PrSubscriptionInfo {
  id: string;
  /** `owner/name`, lower case. */
  repo: string;
  number: number;
  /** The webhook events that are delivered. */
  events: string[];
  /** How many deliveries reached the session so far. */
  delivered: number;
}

/** What subscribe_pr needs: the session's webhook receiver (feature `github_webhooks`). */
export interface PullRequestWebhookAccess {
  /**
   * Follows a pull request: matching deliveries go to `deliver` (the agent's next request) as
   * notes. Starts the receiver on first use; an error says what is missing (a secret, a port).
   */
  subscribe(request: {
    repo: string;
    number: number;
    events: readonly string[];
    deliver?: (note: string) => void;
  }): Promise<
    | { subscription: PrSubscriptionInfo; url: string; subscriptions: PrSubscriptionInfo[]; logPath: string }
    | { error: string }
  >;
}
