import { Schema } from "effect"
import type { Upload } from "../../../../domain/ports/upload-store.ts"

export const FileObject = Schema.Struct({
  key: Schema.String.annotations({ description: "The file's key: pass it where a create call takes a visual or footage." }),
  kind: Schema.Literal("image", "gif", "video").annotations({ description: "What the content is, told from its bytes." }),
  name: Schema.String.annotations({ description: "The file's name." }),
  contentType: Schema.String.annotations({ description: "MIME type, from the content." }),
  size: Schema.Int.annotations({ description: "Bytes." }),
  width: Schema.Int.annotations({ description: "Pixels." }),
  height: Schema.Int.annotations({ description: "Pixels." }),
  duration: Schema.optional(Schema.Number).annotations({ description: "Seconds, for videos and animated gifs." }),
  url: Schema.String.annotations({ description: "Unguessable link to the file (no token needed)." }),
  createdAt: Schema.String.annotations({ description: "ISO 8601 UTC timestamp with milliseconds." })
}).annotations({ identifier: "File", description: "A picture or clip uploaded to use in videos." })
export type FileObject = typeof FileObject.Type

export const presentUpload = (upload: Upload, url: string): FileObject => ({
  key: upload.key,
  kind: upload.kind,
  name: upload.name,
  contentType: upload.contentType,
  size: upload.bytes,
  width: upload.width,
  height: upload.height,
  ...(upload.durationSeconds === null ? {} : { duration: upload.durationSeconds }),
  url,
  createdAt: upload.createdAt
})
