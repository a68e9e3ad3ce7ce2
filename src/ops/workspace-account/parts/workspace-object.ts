import { Schema } from "effect"
import { Plan } from "../../../../domain/plans.ts"
import type { TranscriberShape } from "../../../../domain/ports/transcriber.ts"
import type { Workspace } from "../../../../domain/ports/workspace-store.ts"

export const CashBalance = Schema.Struct({
  balance: Schema.Int.annotations({ description: "The cash balance in micro-dollars (1 USD = 1,000,000; $0.10 = 100000)." }),
  currency: Schema.Literal("USD").annotations({ description: "Always US dollars." }),
  unit: Schema.Literal("microdollars").annotations({ description: "Amounts of cash are integer micro-dollars." })
}).annotations({ identifier: "CashBalance", description: "Money for BYOK renders and marketplace purchases." })

export const WorkspaceObject = Schema.Struct({
  id: Schema.String.annotations({ description: "The workspace's id." }),
  name: Schema.String.annotations({ description: "Its name." }),
  plan: Plan,
  credits: Schema.Int.annotations({ description: "The credit balance." }),
  cash: CashBalance,
  owner: Schema.Struct({ email: Schema.String.annotations({ description: "The owner's email address." }) })
    .annotations({ description: "Who owns the workspace." }),
  byok: Schema.Boolean.annotations({ description: "Whether renders are charged from the cash balance (bring your own key)." }),
  transcription: Schema.Struct({
    engine: Schema.Literal("whisper", "openai", "pocketsphinx").annotations({
      description: "`whisper` (whisper.cpp on the server), `openai` (an OpenAI-compatible service) or `pocketsphinx` (offline, far less accurate on real speech)."
    }),
    model: Schema.String.annotations({ description: "The model it recognises with, e.g. `ggml-base.en-q5_1.bin`, `whisper-1`, `en-us`." })
  }).annotations({ description: "The speech recogniser this service captions with (the same for every workspace)." }),
  createdAt: Schema.String.annotations({ description: "ISO 8601 UTC timestamp with milliseconds." })
}).annotations({ identifier: "Workspace", description: "The workspace a token acts for, with its balances." })
export type WorkspaceObject = typeof WorkspaceObject.Type

export const presentWorkspace = (
  workspace: Workspace,
  credits: number,
  cash: number,
  transcriber: Pick<TranscriberShape, "name" | "model">
): WorkspaceObject => ({
  id: workspace.id,
  name: workspace.name,
  plan: workspace.plan,
  credits,
  cash: { balance: cash, currency: "USD", unit: "microdollars" },
  owner: { email: workspace.ownerEmail },
  byok: workspace.byok,
  transcription: { engine: transcriber.name, model: transcriber.model },
  createdAt: workspace.createdAt
})
