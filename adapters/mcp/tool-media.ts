// The file a tool made (a screenshot, speech), sent with its answer so an assistant can look at it or
// play it without fetching the URL: inline as MCP image or audio content when small, else a link.
import { Chunk, Effect, Option, Schema, Stream } from "effect"
import { BlobStore } from "../../domain/ports/blob-store.ts"
import { FileStore, type StoredFile } from "../../domain/ports/file-store.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"

/** Base64 adds a third, and the whole answer goes through the client's context: past this, a link. */
export const INLINE_MEDIA_BYTES = 2 * 1000 * 1000

export type MediaContent =
  | { readonly type: "image" | "audio"; readonly data: string; readonly mimeType: string }
  | { readonly type: "resource_link"; readonly uri: string; readonly name: string; readonly mimeType: string; readonly size: number }

/** What an operation that `answersFile` answers, encoded: the stored file's id and its link. */
const FileAnswer = Schema.Struct({ id: Schema.String, url: Schema.String })

const inlineKind = (contentType: string): "image" | "audio" | null =>
  contentType.startsWith("image/") ? "image" : contentType.startsWith("audio/") ? "audio" : null

/** How a file is sent: inline when it is a picture or sound under the cap, else a link to `url`. */
export const mediaForm = (file: Pick<StoredFile, "contentType" | "bytes" | "name">, url: string, cap = INLINE_MEDIA_BYTES) => {
  const kind = inlineKind(file.contentType)
  return kind !== null && file.bytes <= cap
    ? { inline: kind }
    : { link: { type: "resource_link" as const, uri: url, name: file.name, mimeType: file.contentType, size: file.bytes } }
}

/** The media content for an answer naming a stored file of the current workspace; none if it is gone. */
export const mediaContent = (answer: unknown): Effect.Effect<ReadonlyArray<MediaContent>, never, FileStore | BlobStore | CurrentWorkspace> =>
  Effect.gen(function*() {
    const { id, url } = yield* Effect.orDie(Schema.decodeUnknown(FileAnswer)(answer))
    const workspace = yield* CurrentWorkspace
    const found = yield* (yield* FileStore).get(id)
    if (Option.isNone(found) || found.value.workspaceId !== workspace.id) return []
    const file = found.value
    const form = mediaForm(file, url)
    if ("link" in form) return [form.link]
    const chunks = yield* Stream.runCollect((yield* BlobStore).read(file.blobKey))
    const data = Buffer.concat(Chunk.toReadonlyArray(chunks)).toString("base64")
    return [{ type: form.inline, data, mimeType: file.contentType }]
  })
