import { Effect, Option, Schema } from "effect"
import { FileStore } from "../../../domain/ports/file-store.ts"
import { UploadStore } from "../../../domain/ports/upload-store.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { fileUrl } from "../../kernel/links.ts"
import { operation } from "../../kernel/operation.ts"
import { ServiceConfig } from "../../kernel/service-config.ts"
import { ListEnvelope, PageParams } from "../../shared/list-envelope.ts"
import { FileObject, presentUpload } from "./parts/file-object.ts"

export const listFiles = operation({
  name: "listFiles",
  summary: "List files",
  description: "The workspace's uploaded pictures and clips, newest first.",
  path: Schema.Struct({}),
  payload: Schema.Struct(PageParams),
  output: ListEnvelope(FileObject, "FileList"),
  errors: [],
  http: { method: "GET", path: "/v1/files" },
  access: "workspace",
  tool: null,
  cli: "files",
  idempotent: false,
  handle: ({ cursor, limit }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const { baseUrl } = yield* ServiceConfig
      const page = yield* (yield* UploadStore).list({ workspaceId: workspace.id, limit, cursor })
      // The page's files in one read; an upload's file is stored with it, so each is there.
      const files = new Map((yield* (yield* FileStore).getMany(page.items.map((upload) => upload.key))).map((f) => [f.id, f]))
      const data = page.items.map((upload) => presentUpload(upload, fileUrl(baseUrl, Option.getOrThrow(Option.fromNullable(files.get(upload.key))))))
      return { data, nextCursor: page.nextCursor }
    })
})
