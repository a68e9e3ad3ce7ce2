// Lint rules that keep the architecture honest: Schema only from `effect`, a pure domain, a kernel
// that no capability's use case reaches into, and spans opened one way.
import tseslint from "typescript-eslint"

const forbidSchemaPackage = {
  name: "@effect/schema",
  message: "Schema comes from `effect` (import { Schema } from \"effect\"); @effect/schema is a stale copy."
}

/** Spans come from the kernel, which skips them where they would record nothing (src/kernel/spans.ts). */
const spansFromKernel = {
  selector: "MemberExpression[object.name='Effect'][property.name=/^(withSpan|withParentSpan)$/]",
  message: "Open spans with withSpan (or withParentSpan) from src/kernel/spans.ts: it skips them where they would record nothing, where Effect's would still copy the context."
}

const noDoubleCast = {
  selector: "TSAsExpression[expression.type='TSAsExpression'][expression.typeAnnotation.type='TSUnknownKeyword']",
  message: "No `as unknown as`: state the type where the value is made, or narrow it with a Schema or a guard."
}

export default tseslint.config(
  { ignores: ["node_modules/**", "data/**", "dist/**", "coverage/**", ".bench-out/**"] },
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.base],
    rules: {
      "no-restricted-imports": ["error", {
        paths: [forbidSchemaPackage],
        patterns: [{ group: ["@effect/schema/*"], message: forbidSchemaPackage.message }]
      }]
    }
  },
  {
    files: ["domain/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        paths: [forbidSchemaPackage],
        patterns: [
          { group: ["@effect/schema", "@effect/schema/*"], message: forbidSchemaPackage.message },
          { group: ["node:*"], message: "domain/ is pure: no Node modules (put I/O behind a port)." },
          {
            group: [
              "fs", "fs/*", "path", "child_process", "http", "https", "net", "tls", "dns", "os", "crypto", "stream",
              "url", "util", "events", "worker_threads", "zlib", "buffer"
            ],
            message: "domain/ is pure: no Node modules (put I/O behind a port)."
          },
          {
            group: ["@effect/sql", "@effect/sql/*", "@effect/sql-pg", "@effect/sql-pg/*", "pg", "pg-*"],
            message: "domain/ knows no SQL: write a port in domain/ports and an adapter in adapters/."
          },
          {
            group: ["@effect/platform", "@effect/platform/*", "@effect/platform-node", "@effect/platform-node/*", "undici", "@modelcontextprotocol/*"],
            message: "domain/ knows no HTTP: errors are mapped to statuses in adapters/http."
          },
          {
            group: ["fluent-ffmpeg", "ffmpeg*", "@ffmpeg*/*", "@napi-rs/*", "@fugood/*", "sharp", "@echogarden/*"],
            message: "domain/ knows no media tools: put them behind a port."
          },
          { group: ["../src/*", "../adapters/*", "../../src/*", "../../adapters/*"], message: "domain/ depends on nothing outside it." }
        ]
      }]
    }
  },
  {
    files: ["src/kernel/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        paths: [forbidSchemaPackage],
        patterns: [
          { group: ["@effect/schema", "@effect/schema/*"], message: forbidSchemaPackage.message },
          {
            group: ["../ops/*", "../../src/ops/*", "../shared/*", "../catalogue.ts", "../worker.ts", "../../adapters/*"],
            message: "src/kernel/ serves every capability and imports none: move what it needs into the kernel or domain/."
          }
        ]
      }]
    }
  },
  {
    files: ["src/**/*.ts", "adapters/**/*.ts"],
    rules: { "no-restricted-syntax": ["error", spansFromKernel] }
  },
  {
    // The surfaces and the kernel keep the types the catalogue declares: no `any`, no double cast.
    files: ["adapters/http/**/*.ts", "adapters/mcp/**/*.ts", "src/kernel/**/*.ts", "src/cli*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "no-restricted-syntax": ["error", spansFromKernel, noDoubleCast]
    }
  },
  {
    // The one file that opens Effect's spans.
    files: ["src/kernel/spans.ts"],
    rules: { "no-restricted-syntax": ["error", noDoubleCast] }
  }
)
