import { Schema } from "effect"

/**
 * The id of a record of one kind: a UUID. A refusal names the kind and quotes what came, as a sentence
 * (Effect's own would read "Expected <description>, actual …").
 */
export const recordId = (kind: string) =>
  Schema.UUID.annotations({
    description: `The ${kind}'s id, a UUID; it never changes.`,
    message: (issue) => `must be a ${kind}'s id (a UUID, as its create answered it), not ${JSON.stringify(issue.actual).slice(0, 80)}`
  })
