// Test certificates made with the openssl CLI: a CA the test workers trust (through NODE_EXTRA_CA_CERTS),
// a server certificate it signed for 127.0.0.1 / ::1 / localhost, and a self-signed one nobody trusts.
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

export interface TestTlsFiles {
  readonly caCert: string
  readonly serverCert: string
  readonly serverKey: string
  readonly untrustedCert: string
  readonly untrustedKey: string
}

const SERVER_NAMES = "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost"

const filesIn = (dir: string): TestTlsFiles => ({
  caCert: join(dir, "ca.pem"),
  serverCert: join(dir, "server.pem"),
  serverKey: join(dir, "server-key.pem"),
  untrustedCert: join(dir, "untrusted.pem"),
  untrustedKey: join(dir, "untrusted-key.pem")
})

const openssl = (...args: Array<string>): void => {
  execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] })
}

const newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

/** Writes the certificates into `dir` (run once, by the global setup). */
export const createTestTls = (dir: string): TestTlsFiles => {
  const files = filesIn(dir)
  const caKey = join(dir, "ca-key.pem")
  const request = join(dir, "server.csr")
  const extensions = join(dir, "server.ext")
  openssl("req", "-x509", ...newKey, "-keyout", caKey, "-out", files.caCert, "-days", "2",
    "-subj", "/CN=Reelwright Test CA",
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
  openssl("req", "-new", ...newKey, "-keyout", files.serverKey, "-out", request, "-subj", "/CN=localhost")
  writeFileSync(extensions, `${SERVER_NAMES}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`)
  openssl("x509", "-req", "-in", request, "-CA", files.caCert, "-CAkey", caKey, "-set_serial", "2",
    "-days", "2", "-extfile", extensions, "-out", files.serverCert)
  openssl("req", "-x509", ...newKey, "-keyout", files.untrustedKey, "-out", files.untrustedCert, "-days", "2",
    "-subj", "/CN=untrusted", "-addext", SERVER_NAMES)
  return files
}

/** The certificates the global setup made (TEST_TLS_DIR), read as PEM text. */
export const testTls = (): { readonly [K in keyof TestTlsFiles]: string } => {
  const dir = process.env.TEST_TLS_DIR
  if (dir === undefined) throw new Error("TEST_TLS_DIR is not set: run the tests through vitest (global setup)")
  const files = filesIn(dir)
  return {
    caCert: readFileSync(files.caCert, "utf8"),
    serverCert: readFileSync(files.serverCert, "utf8"),
    serverKey: readFileSync(files.serverKey, "utf8"),
    untrustedCert: readFileSync(files.untrustedCert, "utf8"),
    untrustedKey: readFileSync(files.untrustedKey, "utf8")
  }
}
