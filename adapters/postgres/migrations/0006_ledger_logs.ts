// Credit entries record the balance after them and the operation that caused them; the cash balance
// gets a log of its own. Existing entries are backfilled: the balance after each is the running sum of
// its workspace's amounts in posting order, and the operation is read from the reason.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`ALTER TABLE ledger ADD COLUMN balance_after bigint, ADD COLUMN operation text`
  yield* sql`UPDATE ledger SET balance_after = running.balance, operation = CASE
      WHEN ledger.reason LIKE 'refund%' THEN 'refund'
      WHEN ledger.reason IN ('opening balance', 'captions', 'speech', 'render') THEN ledger.reason
      ELSE 'top-up'
    END
    FROM (SELECT id, SUM(amount) OVER (PARTITION BY workspace_id ORDER BY seq) AS balance FROM ledger) AS running
    WHERE running.id = ledger.id`
  yield* sql`ALTER TABLE ledger
    ALTER COLUMN balance_after SET NOT NULL,
    ALTER COLUMN operation SET NOT NULL,
    ADD CONSTRAINT ledger_balance_never_negative CHECK (balance_after >= 0)`
  // The balance is the newest entry's balance_after: one index entry, not a sum over the workspace.
  yield* sql`DROP INDEX ledger_by_workspace`
  yield* sql`CREATE INDEX ledger_by_workspace ON ledger (workspace_id, seq) INCLUDE (balance_after)`
  yield* sql`CREATE INDEX ledger_by_video ON ledger (workspace_id, video_id, seq) WHERE video_id IS NOT NULL`

  // Amounts in integer micro-dollars; seq keeps posting order.
  yield* sql`CREATE TABLE cash_ledger (
    id text PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    workspace_id text NOT NULL,
    key text NOT NULL UNIQUE,
    kind text NOT NULL CHECK (kind IN ('top_up', 'render_charge', 'render_refund', 'marketplace_charge')),
    amount bigint NOT NULL,
    balance_after bigint NOT NULL CHECK (balance_after >= 0),
    note text,
    video_id text,
    at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX cash_ledger_by_workspace ON cash_ledger (workspace_id, seq) INCLUDE (balance_after)`
})
