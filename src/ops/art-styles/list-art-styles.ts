import { Effect, Schema } from "effect"
import { ART_STYLES, artStyleRecord, ArtStyleRecord } from "../../../domain/art-styles.ts"
import { operation } from "../../kernel/operation.ts"
import { ServiceConfig } from "../../kernel/service-config.ts"
import { ListEnvelope } from "../../shared/list-envelope.ts"

export const artStylePreviewUrl = (baseUrl: string, id: string): string => `${baseUrl}/art-styles/${encodeURIComponent(id)}/preview.png`

const ArtStyleObject = Schema.Struct({
  ...ArtStyleRecord.fields,
  preview: Schema.String.annotations({ description: "URL of a sample picture in the style (PNG, no token needed)." })
}).annotations({ identifier: "ArtStyle", description: "A look an AI video V3 can be drawn in." })

export const listArtStyles = operation({
  name: "listArtStyles",
  summary: "List art styles",
  description: "Art styles an AI video V3 can be drawn in; pass an `id` as `artStyleId`.",
  path: Schema.Struct({}),
  payload: Schema.Struct({}),
  output: ListEnvelope(ArtStyleObject, "ArtStyleList"),
  errors: [],
  http: { method: "GET", path: "/v1/art-styles" },
  access: "workspace",
  tool: "list_art_styles",
  cli: "art-styles",
  idempotent: false,
  handle: () =>
    Effect.map(ServiceConfig, ({ baseUrl }) => ({
      data: ART_STYLES.map((style) => ({ ...artStyleRecord(style), preview: artStylePreviewUrl(baseUrl, style.id) })),
      nextCursor: null
    }))
})
