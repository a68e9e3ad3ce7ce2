import { Schema } from "effect"

/** An email address, lower-cased: it names a user, and the same person may type it in any case. */
export const EmailAddress = Schema.Lowercase.pipe(
  Schema.compose(Schema.Trim),
  Schema.compose(
    Schema.String.pipe(
      Schema.maxLength(254),
      Schema.pattern(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, { message: () => "must be an email address" })
    )
  )
).annotations({ description: "An email address; compared without regard to case.", examples: ["ada@example.com"] })
