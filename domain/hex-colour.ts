// The one colour rule of the API: # and six hex digits, so a colour never carries anything else
// into what it is written to (an ASS script, a filter graph, a canvas).
import { Schema } from "effect"

export const HexColour = Schema.String.pipe(
  Schema.pattern(/^#[0-9a-fA-F]{6}$/, { message: () => "must be a colour as #RRGGBB, e.g. #FFE000" })
).annotations({ description: "A colour, #RRGGBB.", examples: ["#FFE000"] })
