import { Context, type Effect, type Option } from "effect"
import type { Workspace } from "./workspace-store.ts"

/** A person who signs in to approve an app's access to one of their workspaces. */
export interface User {
  readonly id: string
  /** Lower case; unique. */
  readonly email: string
  /** `scrypt$N$r$p$salt$hash` (base64url parts); null until a password is set (an owner made with a workspace). */
  readonly passwordHash: string | null
  readonly createdAt: string
}

export type MemberRole = "owner" | "member"

export interface Membership {
  readonly userId: string
  readonly workspaceId: string
  readonly role: MemberRole
  readonly createdAt: string
}

export interface MemberWorkspace {
  readonly workspace: Workspace
  readonly role: MemberRole
}

/** A browser sign-in. The cookie holds a random token; only its SHA-256 is stored. */
export interface Session {
  readonly hash: string
  readonly userId: string
  readonly createdAt: string
  readonly expiresAt: string
}

export interface SessionWithUser {
  readonly session: Session
  readonly user: User
}

export interface UserStoreShape {
  readonly insertUser: (user: User) => Effect.Effect<void>
  /** Replaces the user's row (email and password hash). */
  readonly updateUser: (user: User) => Effect.Effect<void>
  readonly getUser: (id: string) => Effect.Effect<Option.Option<User>>
  /** `email` is compared lower-cased. */
  readonly findUserByEmail: (email: string) => Effect.Effect<Option.Option<User>>
  /** Adds the user to the workspace; when already a member, the role is set to the new one. */
  readonly addMembership: (membership: Membership) => Effect.Effect<void>
  /** The user's workspaces, by workspace name then id. */
  readonly workspacesOf: (userId: string) => Effect.Effect<ReadonlyArray<MemberWorkspace>>
  readonly insertSession: (session: Session) => Effect.Effect<void>
  /** The session with its user, read together; expired sessions are returned too (the caller decides). */
  readonly findSession: (hash: string) => Effect.Effect<Option.Option<SessionWithUser>>
  readonly deleteSession: (hash: string) => Effect.Effect<void>
}
export class UserStore extends Context.Tag("UserStore")<UserStore, UserStoreShape>() {}
