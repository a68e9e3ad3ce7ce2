import { Schema } from "effect"
import { CaptionStyle, PartialCaptionStyle } from "../../../../domain/captions.ts"
import { integerParameter } from "../../../../domain/integer-text.ts"

export const CaptionTemplateObject = Schema.Struct({
  id: Schema.Int.annotations({ description: "Negative = built-in, positive = saved by the workspace." }),
  name: Schema.String.annotations({ description: "A name to pick it by." }),
  builtIn: Schema.Boolean.annotations({ description: "Built in (cannot be changed) or saved by the workspace." }),
  style: CaptionStyle,
  preview: Schema.NullOr(Schema.String).annotations({
    description:
      "URL of a few looping seconds of the template in motion (animated WebP, 270x480, no token needed), drawn like the export. null for saved templates: the editor previews them live."
  })
}).annotations({ identifier: "CaptionTemplate", description: "A caption style." })

/** Some of the style fields; the others keep the base template's values. */
export const StyleChanges = PartialCaptionStyle.annotations({
  description: "Style fields to set; the others keep the base template's values."
})

export const TemplateName = Schema.String.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(80)).annotations({
  description: "A name to pick the template by, 1 to 80 characters."
})

export const captionTemplatePreviewUrl = (baseUrl: string, id: number): string => `${baseUrl}/caption-templates/${id}/preview.webp`

export const present = (baseUrl: string) => (t: { readonly id: number; readonly name: string; readonly builtIn: boolean; readonly style: CaptionStyle }) => ({
  id: t.id,
  name: t.name,
  builtIn: t.builtIn,
  style: t.style,
  preview: t.builtIn ? captionTemplatePreviewUrl(baseUrl, t.id) : null
})

export const SavedTemplateId = integerParameter(1).annotations({
  description: "A saved template's id (positive). Built-in templates cannot be changed."
})
