import { Effect, Schema } from "effect"
import { CashLedger } from "../../../domain/ports/cash-ledger.ts"
import { Ledger } from "../../../domain/ports/ledger.ts"
import { Transcriber } from "../../../domain/ports/transcriber.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { presentWorkspace, WorkspaceObject } from "./parts/workspace-object.ts"

export const getWorkspace = operation({
  name: "getWorkspace",
  summary: "Get the workspace",
  description: "The workspace the token acts for: its plan, credit balance, cash balance (micro-dollars) and owner, and the speech recogniser captions are made with.",
  path: Schema.Struct({}),
  payload: Schema.Struct({}),
  output: WorkspaceObject,
  errors: [],
  http: { method: "GET", path: "/v1/workspace" },
  access: "workspace",
  tool: "get_workspace",
  cli: "workspace",
  idempotent: false,
  handle: () =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const [credits, cash] = yield* Effect.all([
        (yield* Ledger).balance(workspace.id),
        (yield* CashLedger).balance(workspace.id)
      ])
      return presentWorkspace(workspace, credits, cash, yield* Transcriber)
    })
})
