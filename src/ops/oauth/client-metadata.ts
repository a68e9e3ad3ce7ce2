// The checks on a client's metadata, the same whether it arrives in a registration (RFC 7591) or in a
// client metadata document: public clients only, redirect URIs that the authorization endpoint can
// later match exactly, and only the descriptive fields pages may show, each checked.
import { Effect } from "effect"
import { OAuthFailure, redirectUriProblem } from "../../../domain/oauth.ts"

const GRANT_TYPES = ["authorization_code", "refresh_token"]
const MAX_REDIRECT_URIS = 10
const MAX_URI_LENGTH = 2000
const MAX_TEXT_LENGTH = 500

/** Text fields echoed back as given. */
const TEXT_FIELDS = ["scope", "software_id", "software_version"] as const
/** URL fields echoed back; http(s) only, since pages may show them as links. */
const URL_FIELDS = ["client_uri", "logo_uri", "tos_uri", "policy_uri"] as const

const metadataProblem = (description: string) => new OAuthFailure({ error: "invalid_client_metadata", description })
const redirectProblem = (description: string) => new OAuthFailure({ error: "invalid_redirect_uri", description })

const isStringArray = (value: unknown): value is ReadonlyArray<string> =>
  Array.isArray(value) && value.every((item) => typeof item === "string")

const redirectUrisOf = (value: unknown): Effect.Effect<ReadonlyArray<string>, OAuthFailure> => {
  if (!isStringArray(value) || value.length === 0) {
    return Effect.fail(redirectProblem("redirect_uris must be a non-empty array of URLs"))
  }
  if (value.length > MAX_REDIRECT_URIS) {
    return Effect.fail(redirectProblem(`redirect_uris may hold at most ${MAX_REDIRECT_URIS} URLs`))
  }
  for (const uri of value) {
    if (uri.length > MAX_URI_LENGTH) return Effect.fail(redirectProblem(`a redirect URI may be at most ${MAX_URI_LENGTH} characters`))
    const problem = redirectUriProblem(uri)
    if (problem !== null) return Effect.fail(redirectProblem(problem))
  }
  return Effect.succeed([...new Set(value)])
}

/** A list field: absent takes `fallback`; present, every item must be allowed. */
const listOf = (
  name: string,
  value: unknown,
  allowed: ReadonlyArray<string>,
  fallback: ReadonlyArray<string>
): Effect.Effect<ReadonlyArray<string>, OAuthFailure> => {
  if (value === undefined) return Effect.succeed(fallback)
  if (!isStringArray(value) || value.length === 0 || !value.every((item) => allowed.includes(item))) {
    return Effect.fail(metadataProblem(`${name} must be a non-empty list of ${allowed.join(", ")}`))
  }
  return Effect.succeed([...new Set(value)])
}

/** The optional descriptive fields, checked, as they will be echoed. */
const descriptiveFields = (body: Readonly<Record<string, unknown>>): Effect.Effect<Record<string, unknown>, OAuthFailure> => {
  const echoed: Record<string, unknown> = {}
  for (const name of TEXT_FIELDS) {
    const value = body[name]
    if (value === undefined) continue
    if (typeof value !== "string" || value.length > MAX_TEXT_LENGTH) {
      return Effect.fail(metadataProblem(`${name} must be text of at most ${MAX_TEXT_LENGTH} characters`))
    }
    echoed[name] = value
  }
  for (const name of URL_FIELDS) {
    const value = body[name]
    if (value === undefined) continue
    if (typeof value !== "string" || value.length > MAX_URI_LENGTH || !/^https?:\/\//i.test(value) || !URL.canParse(value)) {
      return Effect.fail(metadataProblem(`${name} must be an http or https URL`))
    }
    echoed[name] = value
  }
  const contacts = body.contacts
  if (contacts !== undefined) {
    if (!isStringArray(contacts) || contacts.length > 10 || contacts.some((c) => c.length > MAX_TEXT_LENGTH)) {
      return Effect.fail(metadataProblem("contacts must be a list of at most 10 email addresses"))
    }
    echoed.contacts = contacts
  }
  return Effect.succeed(echoed)
}

const clientNameOf = (value: unknown): Effect.Effect<string, OAuthFailure> => {
  if (value === undefined) return Effect.succeed("Unnamed app")
  if (typeof value !== "string" || value.trim().length === 0 || value.length > 200) {
    return Effect.fail(metadataProblem("client_name must be text of 1 to 200 characters"))
  }
  return Effect.succeed(value.trim())
}

/** Metadata as accepted: the name shown to users, the redirect URIs, and the fields echoed back. */
export interface AcceptedClientMetadata {
  readonly name: string
  readonly redirectUris: ReadonlyArray<string>
  readonly metadata: Readonly<Record<string, unknown>>
}

export const acceptClientMetadata = (metadata: unknown): Effect.Effect<AcceptedClientMetadata, OAuthFailure> =>
  Effect.gen(function*() {
    if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
      return yield* metadataProblem("the client metadata must be a JSON object")
    }
    const body = metadata as Readonly<Record<string, unknown>>
    const redirectUris = yield* redirectUrisOf(body.redirect_uris)
    const authMethod = body.token_endpoint_auth_method
    if (authMethod !== undefined && authMethod !== "none") {
      return yield* metadataProblem(
        "token_endpoint_auth_method must be none: clients are public and prove themselves with PKCE, without a secret"
      )
    }
    const name = yield* clientNameOf(body.client_name)
    const accepted = {
      redirect_uris: redirectUris,
      client_name: name,
      token_endpoint_auth_method: "none",
      grant_types: yield* listOf("grant_types", body.grant_types, GRANT_TYPES, GRANT_TYPES),
      response_types: yield* listOf("response_types", body.response_types, ["code"], ["code"]),
      ...(yield* descriptiveFields(body))
    }
    return { name, redirectUris, metadata: accepted }
  })
