// A workspace's webhook signing secrets (Standard Webhooks). A workspace holds a few at once so that a
// receiver can rotate without a gap: each delivery carries one signature per secret active when it is
// sent, and a receiver that knows any one of them verifies it. A secret may be given an expiry; from
// then on it signs nothing.

/** Standard Webhooks secrets read `whsec_` + base64 of the key's bytes. */
export const WEBHOOK_SECRET_PREFIX = "whsec_"

/** How many secrets may be active at once: enough for a rotation in progress, few enough to sign each delivery with all. */
export const MAX_ACTIVE_WEBHOOK_SECRETS = 5

/** The longest expiry a request may ask for, in seconds (ten years). */
export const MAX_WEBHOOK_SECRET_LIFETIME_SECONDS = 10 * 365 * 24 * 60 * 60

/** Characters of the key (after `whsec_`) that listings show, to tell secrets apart. */
const SHOWN_KEY_CHARACTERS = 4

export interface WebhookSecret {
  readonly id: string
  readonly workspaceId: string
  /** The whole secret (`whsec_…`): signing needs it, so it is kept readable; answers show it only when it is created. */
  readonly secret: string
  readonly createdAt: string
  /** From this instant it signs nothing; null = until deleted. */
  readonly expiresAt: string | null
}

/** Whether `secret` signs a delivery sent at `atMs`: it has not expired by then. */
export const isActiveAt = (secret: Pick<WebhookSecret, "expiresAt">, atMs: number): boolean =>
  secret.expiresAt === null || Date.parse(secret.expiresAt) > atMs

/** The secrets that sign a delivery sent at `atMs`, in the order given. */
export const activeAt = <S extends Pick<WebhookSecret, "expiresAt">>(secrets: ReadonlyArray<S>, atMs: number): ReadonlyArray<S> =>
  secrets.filter((secret) => isActiveAt(secret, atMs))

/** What listings show of a secret: `whsec_` and the key's first four characters. */
export const secretPrefix = (secret: string): string =>
  secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(0, WEBHOOK_SECRET_PREFIX.length + SHOWN_KEY_CHARACTERS)
    : secret.slice(0, SHOWN_KEY_CHARACTERS)
