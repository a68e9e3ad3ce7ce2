import { Schema } from "effect"
import { CaptionStyle } from "../../../domain/captions.ts"

export const CaptionTemplateObject = Schema.Struct({
  id: Schema.Int.annotations({ description: "Negative = built-in, positive = saved by the workspace." }),
  name: Schema.String,
  builtIn: Schema.Boolean,
  style: CaptionStyle
}).annotations({ identifier: "CaptionTemplate" })

export const TemplateName = Schema.String.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(80))

export const present = (t: { readonly id: number; readonly name: string; readonly builtIn: boolean; readonly style: CaptionStyle }) => ({
  id: t.id,
  name: t.name,
  builtIn: t.builtIn,
  style: t.style
})

export const SavedTemplateId = Schema.NumberFromString.pipe(Schema.int(), Schema.positive()).annotations({
  description: "A saved template's id (positive). Built-in templates cannot be changed."
})
