// GET /v1/workspace/vocabulary, tool get_workspace_vocabulary: the names and terms captions are made with.
import { Effect, Schema } from "effect"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { VocabularyTerms } from "../../../domain/vocabulary.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"

export const WorkspaceVocabulary = Schema.Struct({ terms: VocabularyTerms }).annotations({
  identifier: "WorkspaceVocabulary",
  description: "Names and terms the workspace's videos say, as they should be written in captions."
})

export const getWorkspaceVocabulary = operation({
  name: "getWorkspaceVocabulary",
  summary: "Get the workspace's vocabulary",
  description: "The names and terms captions of this workspace's videos are recognised with (empty until set).",
  path: Schema.Struct({}),
  payload: Schema.Struct({}),
  output: WorkspaceVocabulary,
  errors: [],
  http: { method: "GET", path: "/v1/workspace/vocabulary" },
  access: "workspace",
  tool: "get_workspace_vocabulary",
  cli: "vocabulary",
  idempotent: false,
  handle: () =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      return { terms: yield* (yield* WorkspaceStore).getVocabulary(workspace.id) }
    })
})
