// A workspace's own key for a hosted media provider (bring your own key). It is stored sealed with the
// server's key and shown only by its last four characters.
import { Schema } from "effect"

export const Provider = Schema.Literal("openai", "elevenlabs").annotations({
  description: "`openai` (speech, illustrations, transcription) or `elevenlabs` (speech)."
})
export type Provider = typeof Provider.Type

/** How people write each provider's name, for messages. */
export const PROVIDER_NAMES: Readonly<Record<Provider, string>> = { openai: "OpenAI", elevenlabs: "ElevenLabs" }

/** One token of printable ASCII: what both providers issue, and nothing a header could not carry. */
export const ProviderApiKey = Schema.String.pipe(
  Schema.pattern(/^[\x21-\x7e]{8,512}$/, { message: () => "an API key is 8 to 512 printable characters without spaces" })
).annotations({ description: "The provider's API key, as its dashboard shows it (e.g. `sk-...`).", examples: ["sk-proj-3xampleKey0000"] })

/** The characters of a stored key that are ever shown again. */
export const lastFour = (apiKey: string): string => apiKey.slice(-4)

/** What a sealed key is bound to: sealed for one workspace and provider, it opens for no other row. */
export const providerKeyContext = (workspaceId: string, provider: Provider): string =>
  `provider-key:${workspaceId}:${provider}`
