import { Option, Schema } from "effect"

const ErrorBody = Schema.parseJson(Schema.Struct({ error: Schema.Struct({ message: Schema.String }) }))

/** The message of an OpenAI-compatible API's error body (`{"error": {"message": …}}`), where the body is one. */
export const openAiErrorMessage = (body: string): Option.Option<string> =>
  Option.map(Schema.decodeUnknownOption(ErrorBody)(body), (parsed) => parsed.error.message)
