// PUT /v1/workspace/vocabulary, tool set_workspace_vocabulary: replaces the names and terms captions are
// made with. Videos captioned from then on use it.
import { Effect, Schema } from "effect"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { distinctTerms, VocabularyTerms } from "../../../domain/vocabulary.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { WorkspaceVocabulary } from "./get-workspace-vocabulary.ts"

export const setWorkspaceVocabulary = operation({
  name: "setWorkspaceVocabulary",
  summary: "Set the workspace's vocabulary",
  description:
    "Replaces the workspace's vocabulary: names and terms its videos say that a recogniser may not know. whisper and the " +
    "OpenAI-compatible service are given them as a prompt; with pocketsphinx, heard words that sound like a term are replaced " +
    "by it. Terms are trimmed and kept once (ignoring case). Videos captioned from then on use it; `[]` clears it.",
  path: Schema.Struct({}),
  payload: Schema.Struct({ terms: VocabularyTerms }),
  output: WorkspaceVocabulary,
  errors: ["InvalidInput"],
  http: { method: "PUT", path: "/v1/workspace/vocabulary" },
  access: "workspace",
  tool: "set_workspace_vocabulary",
  cli: "set-vocabulary",
  idempotent: false,
  handle: ({ terms }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const kept = distinctTerms(terms)
      yield* (yield* WorkspaceStore).setVocabulary(workspace.id, kept)
      return { terms: kept }
    })
})
