import { Effect, Schema } from "effect"
import { CashLedger } from "../../../domain/ports/cash-ledger.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { ListEnvelope, PageParams } from "../../shared/list-envelope.ts"
import { BalanceLog, presentBalanceLog } from "./parts/balance-log-object.ts"

export const listBalanceLogs = operation({
  name: "listBalanceLogs",
  summary: "List balance logs",
  description:
    "Every movement of the workspace's cash balance, newest first, in micro-dollars: top-ups, BYOK render charges and " +
    "refunds, marketplace charges, each with the balance right after it.",
  path: Schema.Struct({}),
  payload: Schema.Struct(PageParams),
  output: ListEnvelope(BalanceLog, "BalanceLogList"),
  errors: [],
  http: { method: "GET", path: "/v1/balance-logs" },
  access: "workspace",
  tool: "list_balance_logs",
  cli: "balance-logs",
  idempotent: false,
  handle: ({ limit, cursor }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const page = yield* (yield* CashLedger).page({ workspaceId: workspace.id, limit, cursor })
      return { data: page.items.map(presentBalanceLog), nextCursor: page.nextCursor }
    })
})
