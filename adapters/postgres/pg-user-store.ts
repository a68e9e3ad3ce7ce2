// UserStore on PostgreSQL: tables users, memberships and sessions.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { type MemberRole, type Session, type User, UserStore } from "../../domain/ports/user-store.ts"
import { isoText } from "./pg-values.ts"
import { toWorkspace, type WorkspaceRow } from "./pg-workspace-store.ts"

interface UserRow {
  readonly id: string
  readonly email: string
  readonly password_hash: string | null
  readonly created_at: Date
}

const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  passwordHash: row.password_hash,
  createdAt: isoText(row.created_at)
})

interface SessionRow {
  readonly hash: string
  readonly user_id: string
  readonly created_at: Date
  readonly expires_at: Date
}

const toSession = (row: SessionRow): Session => ({
  hash: row.hash,
  userId: row.user_id,
  createdAt: isoText(row.created_at),
  expiresAt: isoText(row.expires_at)
})

/** A session row joined to its user's columns, which take a `user_` prefix where they would collide. */
interface SessionWithUserRow extends SessionRow {
  readonly email: string
  readonly password_hash: string | null
  readonly user_created_at: Date
}

interface MemberWorkspaceRow extends WorkspaceRow {
  readonly role: MemberRole
}

export const PgUserStoreLive = Layer.effect(
  UserStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    UserStore.of({
      insertUser: (u) =>
        sql`INSERT INTO users (id, email, password_hash, created_at)
          VALUES (${u.id}, ${u.email}, ${u.passwordHash}, ${u.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgUserStore.insertUser")
        ),
      updateUser: (u) =>
        sql`UPDATE users SET email = ${u.email}, password_hash = ${u.passwordHash} WHERE id = ${u.id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgUserStore.updateUser")
        ),
      getUser: (id) =>
        sql<UserRow>`SELECT * FROM users WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toUser)),
          Effect.orDie,
          Effect.withSpan("PgUserStore.getUser")
        ),
      // Lower-cased here rather than with SQL lower(), so that both adapters fold case the same way.
      findUserByEmail: (email) =>
        sql<UserRow>`SELECT * FROM users WHERE email = ${email.toLowerCase()}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toUser)),
          Effect.orDie,
          Effect.withSpan("PgUserStore.findUserByEmail")
        ),
      // A repeated membership takes the new role and keeps when it began.
      addMembership: (m) =>
        sql`INSERT INTO memberships (user_id, workspace_id, role, created_at)
          VALUES (${m.userId}, ${m.workspaceId}, ${m.role}, ${m.createdAt})
          ON CONFLICT (user_id, workspace_id) DO UPDATE SET role = EXCLUDED.role`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgUserStore.addMembership")
        ),
      // "C" collation: names sort in code-unit order, as the memory adapter sorts them.
      workspacesOf: (userId) =>
        sql<MemberWorkspaceRow>`SELECT w.*, m.role FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
          WHERE m.user_id = ${userId} ORDER BY w.name COLLATE "C", w.id COLLATE "C"`.pipe(
          Effect.map((rows) => rows.map((row) => ({ workspace: toWorkspace(row), role: row.role }))),
          Effect.orDie,
          Effect.withSpan("PgUserStore.workspacesOf")
        ),
      insertSession: (s) =>
        sql`INSERT INTO sessions (hash, user_id, created_at, expires_at)
          VALUES (${s.hash}, ${s.userId}, ${s.createdAt}, ${s.expiresAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgUserStore.insertSession")
        ),
      findSession: (hash) =>
        sql<SessionWithUserRow>`SELECT s.*, u.email, u.password_hash, u.created_at AS user_created_at
          FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.hash = ${hash}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              session: toSession(row),
              user: toUser({
                id: row.user_id,
                email: row.email,
                password_hash: row.password_hash,
                created_at: row.user_created_at
              })
            }))
          ),
          Effect.orDie,
          Effect.withSpan("PgUserStore.findSession")
        ),
      deleteSession: (hash) =>
        sql`DELETE FROM sessions WHERE hash = ${hash}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgUserStore.deleteSession")
        )
    }))
)
