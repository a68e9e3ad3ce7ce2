// A source given as a URL: fetched through the SSRF-guarded client within the source limits, and
// stored as a file of the workspace (named after the URL's last path segment).
import { Effect, Option } from "effect"
import { SourceFetcher } from "../../../domain/ports/source-fetcher.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { MAX_SOURCE_BYTES } from "../../../domain/rules.ts"
import { storeFile } from "./store-file.ts"

const SOURCE_TIMEOUT_MS = 30 * 60 * 1000

export const downloadSource = (workspaceId: string, url: string, dir: string) =>
  Effect.gen(function*() {
    const path = `${dir}/download`
    const { contentType } = yield* (yield* SourceFetcher).download(url, path, {
      maxBytes: MAX_SOURCE_BYTES,
      timeoutMs: SOURCE_TIMEOUT_MS
    })
    const workspace = yield* (yield* WorkspaceStore).get(workspaceId).pipe(Effect.map(Option.getOrThrow))
    const name = decodeURIComponent(new URL(url).pathname.split("/").pop() || "source")
    return yield* storeFile(workspace, { path, name, contentType: contentType ?? "application/octet-stream" })
  })
