// A create names an upload by its key: it must be this workspace's, of a kind the place it is used can show.
import { Effect, Option } from "effect"
import { InvalidInput } from "../../../../domain/errors.ts"
import { UploadStore } from "../../../../domain/ports/upload-store.ts"
import { CurrentWorkspace } from "../../../kernel/current-workspace.ts"

export const requireUpload = (key: string, field: string, kinds: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const workspace = yield* CurrentWorkspace
    const found = yield* (yield* UploadStore).get(workspace.id, key)
    if (Option.isNone(found)) {
      return yield* new InvalidInput({ field, message: `no file ${JSON.stringify(key)} in this workspace; upload it with POST /v1/files` })
    }
    if (!kinds.includes(found.value.kind)) {
      return yield* new InvalidInput({ field, message: `the file ${key} is a ${found.value.kind}; this takes a ${kinds.join(" or ")}` })
    }
  })
