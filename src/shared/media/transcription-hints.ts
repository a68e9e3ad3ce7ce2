import { Effect } from "effect"
import type { TranscriptionHints } from "../../../domain/ports/transcriber.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"

/** What the transcriber is told of a workspace's speech: the language asked (null: the engine's guess) and the workspace's vocabulary. */
export const transcriptionHints = (workspaceId: string, language: string | null) =>
  Effect.flatMap(WorkspaceStore, (store) => store.getVocabulary(workspaceId)).pipe(
    Effect.map((vocabulary): TranscriptionHints => ({ workspaceId, language: language ?? undefined, vocabulary }))
  )
