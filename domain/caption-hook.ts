// A hook: a title over the first seconds of a video, in its caption template's look, to stop the scroll.
import { Schema } from "effect"

export const HOOK_DEFAULT_SECONDS = 3
/** How long a hook may show, and how long its text may be (the editor's inputs take the same limits). */
export const HOOK_SECONDS = { min: 0.5, max: 10 } as const
export const HOOK_MAX_CHARACTERS = 100

const HOOK_TEXT = `The title, 1 to ${HOOK_MAX_CHARACTERS} characters (spaces around it are dropped); it wraps to the picture's width.`

export const CaptionHook = Schema.Struct({
  // Described on the encoded side too, which is what OpenAPI and the MCP tools show.
  text: Schema.compose(
    Schema.String.annotations({ description: HOOK_TEXT }),
    Schema.Trim.pipe(
      Schema.minLength(1, { message: () => "hook.text must not be blank" }),
      Schema.maxLength(HOOK_MAX_CHARACTERS, { message: () => `hook.text must be at most ${HOOK_MAX_CHARACTERS} characters` })
    )
  ).annotations({ description: HOOK_TEXT }),
  seconds: Schema.optionalWith(Schema.Number.pipe(Schema.between(HOOK_SECONDS.min, HOOK_SECONDS.max)), { default: () => HOOK_DEFAULT_SECONDS }).annotations({
    description: `How long it shows from the start, ${HOOK_SECONDS.min} to ${HOOK_SECONDS.max} seconds (default ${HOOK_DEFAULT_SECONDS}).`
  })
}).annotations({
  identifier: "CaptionHook",
  description: "A title at the top of the first seconds, styled by the caption template (its font, colours, outline or box, and entrance)."
})
export type CaptionHook = typeof CaptionHook.Type
