// Runs once before the test workers start. Workers are forked after this and inherit the environment
// set here; NODE_EXTRA_CA_CERTS in particular is read only when a process starts.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { prepareTemplate } from "./pg-test-db.ts"
import { createTestTls } from "./tls.ts"

export default async function setup(): Promise<void> {
  process.env.OUTBOUND_ALLOW_LOOPBACK = "1"
  const dir = mkdtempSync(join(tmpdir(), "reelwright-tls-"))
  const tls = createTestTls(dir)
  process.env.TEST_TLS_DIR = dir
  process.env.NODE_EXTRA_CA_CERTS = tls.caCert
  // Not in a teardown: vitest may still start a worker after it, and that worker would find no CA file.
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }))
  // The migrated database every PostgreSQL suite copies (TEST_DATABASE_URL; see pg-test-db.ts).
  await prepareTemplate()
}
