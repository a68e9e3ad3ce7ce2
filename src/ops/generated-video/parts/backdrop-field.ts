// What a chat or a quiz is shown over, as the create operations take it: a colour, an upload, or a
// built-in game. Checked against the workspace's uploads before anything is created.
import { Effect, Schema } from "effect"
import { GameKind } from "../../../../domain/gameplay.ts"
import type { Backdrop } from "../../../../domain/generated-project.ts"
import { HexColour } from "../../../../domain/hex-colour.ts"
import { requireUpload } from "../../files/parts/require-upload.ts"

export const BackdropField = Schema.Union(
  Schema.Struct({ color: HexColour }).annotations({ title: "Colour", description: "A solid colour, #RRGGBB." }),
  Schema.Struct({
    fileKey: Schema.String.annotations({ description: "Key of an uploaded picture, gif or video (POST /v1/files); a gif or video loops." })
  }).annotations({ title: "Upload", description: "A picture, gif or clip the workspace uploaded." }),
  Schema.Struct({ game: GameKind }).annotations({
    title: "Game",
    description: "Built-in gameplay footage, played for as long as the video lasts."
  })
).annotations({ description: "What the video is shown over: `{color}`, `{fileKey}` or `{game}`." })
export type BackdropField = typeof BackdropField.Type

export const resolveBackdrop = (field: BackdropField | undefined, name: string) =>
  Effect.gen(function*() {
    if (field === undefined) return null
    if ("color" in field) return { _tag: "Colour", hex: field.color } satisfies Backdrop
    if ("game" in field) return { _tag: "Game", game: field.game } satisfies Backdrop
    yield* requireUpload(field.fileKey, `${name}.fileKey`, ["image", "gif", "video"])
    return { _tag: "Upload", key: field.fileKey } satisfies Backdrop
  })
