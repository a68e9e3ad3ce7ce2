// UserStore on PostgreSQL: tables users, memberships and sessions.
import { SqlClient, type SqlConnection } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { type MemberRole, UserStore } from "../../domain/ports/user-store.ts"
import { firstRow, rowDecoder } from "./pg-rows.ts"
import { IsoFromDate } from "./pg-values.ts"
import { workspaceRows } from "./pg-workspace-store.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const UserRow = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  password_hash: Schema.NullOr(Schema.String),
  created_at: IsoFromDate
}).pipe(Schema.rename({ password_hash: "passwordHash", created_at: "createdAt" }))

const SessionRow = Schema.Struct({
  hash: Schema.String,
  user_id: Schema.String,
  created_at: IsoFromDate,
  expires_at: IsoFromDate
}).pipe(Schema.rename({ user_id: "userId", created_at: "createdAt", expires_at: "expiresAt" }))

/** A session's user in a join: its columns, with a `user_` prefix where they would collide with the session's. */
const JoinedUserRow = Schema.Struct({
  user_id: Schema.String,
  email: Schema.String,
  password_hash: Schema.NullOr(Schema.String),
  user_created_at: IsoFromDate
}).pipe(Schema.rename({ user_id: "id", password_hash: "passwordHash", user_created_at: "createdAt" }))

const userRows = rowDecoder("users", UserRow)
const sessionRows = rowDecoder("sessions", SessionRow, ["hash"])
const joinedUserRows = rowDecoder("users", JoinedUserRow, ["user_id"])
/** A membership's role, joined to its workspace's row (`w.*`). */
const roleRows = rowDecoder("memberships", Schema.Struct({ role: Schema.Literal("owner", "member") satisfies Schema.Schema<MemberRole> }))

const sessionWithUser = (row: SqlConnection.Row) => Effect.all({ session: sessionRows.one(row), user: joinedUserRows.one(row) })

const memberWorkspace = (row: SqlConnection.Row) =>
  Effect.all({ workspace: workspaceRows.one(row), role: Effect.map(roleRows.one(row), (member) => member.role) })

export const PgUserStoreLive = Layer.effect(
  UserStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    UserStore.of({
      insertUser: (u) =>
        sql`INSERT INTO users (id, email, password_hash, created_at)
          VALUES (${u.id}, ${u.email}, ${u.passwordHash}, ${u.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgUserStore.insertUser")
        ),
      updateUser: (u) =>
        sql`UPDATE users SET email = ${u.email}, password_hash = ${u.passwordHash} WHERE id = ${u.id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgUserStore.updateUser")
        ),
      getUser: (id) =>
        sql`SELECT * FROM users WHERE id = ${id}`.pipe(
          Effect.flatMap(userRows.first),
          Effect.orDie,
          withSpan("PgUserStore.getUser")
        ),
      // Lower-cased here rather than with SQL lower(), so that both adapters fold case the same way.
      findUserByEmail: (email) =>
        sql`SELECT * FROM users WHERE email = ${email.toLowerCase()}`.pipe(
          Effect.flatMap(userRows.first),
          Effect.orDie,
          withSpan("PgUserStore.findUserByEmail")
        ),
      // A repeated membership takes the new role and keeps when it began.
      addMembership: (m) =>
        sql`INSERT INTO memberships (user_id, workspace_id, role, created_at)
          VALUES (${m.userId}, ${m.workspaceId}, ${m.role}, ${m.createdAt})
          ON CONFLICT (user_id, workspace_id) DO UPDATE SET role = EXCLUDED.role`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgUserStore.addMembership")
        ),
      // "C" collation: names sort in code-unit order, as the memory adapter sorts them.
      workspacesOf: (userId) =>
        sql`SELECT w.*, m.role FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
          WHERE m.user_id = ${userId} ORDER BY w.name COLLATE "C", w.id COLLATE "C"`.pipe(
          Effect.flatMap((rows) => Effect.forEach(rows, memberWorkspace)),
          Effect.orDie,
          withSpan("PgUserStore.workspacesOf")
        ),
      insertSession: (s) =>
        sql`INSERT INTO sessions (hash, user_id, created_at, expires_at)
          VALUES (${s.hash}, ${s.userId}, ${s.createdAt}, ${s.expiresAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgUserStore.insertSession")
        ),
      findSession: (hash) =>
        sql`SELECT s.*, u.email, u.password_hash, u.created_at AS user_created_at
          FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.hash = ${hash}`.pipe(
          Effect.flatMap((rows) => firstRow(rows, sessionWithUser)),
          Effect.orDie,
          withSpan("PgUserStore.findSession")
        ),
      deleteSession: (hash) =>
        sql`DELETE FROM sessions WHERE hash = ${hash}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgUserStore.deleteSession")
        )
    }))
)
