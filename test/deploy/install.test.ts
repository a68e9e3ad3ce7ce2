// How the dependencies get installed: `npm ci` on the committed package-lock.json, in scripts/setup.sh,
// the image and CI alike, with no `npm install` fallback (it would rewrite the lock on every machine) and
// no environment variable (onnxruntime-node's opt-out from downloading its CUDA provider is in .npmrc).
// The image's Node is one package.json's engines allows, and the lock is in sync with package.json.
import { execFile } from "node:child_process"
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"

const run = promisify(execFile)
const read = (file: string) => readFileSync(file, "utf8")

const INSTALLERS = ["scripts/setup.sh", "Dockerfile", ".ci/run"] as const

/** What a shell script or Dockerfile runs: comment lines dropped, quoted strings (its messages) emptied. */
const commands = (text: string) =>
  text
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n")
    .replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, "''")

const NPM_INSTALL = /\bnpm\s+(?:install|i|add|update|up)\b/

/** The environment without any onnxruntime opt-out of its own, so what npm passes on comes from .npmrc. */
const envWithoutOptOut = () => {
  const env = { ...process.env }
  for (const key of Object.keys(env)) {
    if (/^(ONNXRUNTIME_NODE_INSTALL|npm_config_onnxruntime_node_install)/i.test(key)) delete env[key]
  }
  return env
}

/** Node versions an engines range of `^M.m.p` alternatives allows (the only form package.json uses). */
const allows = (range: string, version: string) => {
  const [major, minor, patch] = version.split(".").map(Number)
  return range.split("||").some((alternative) => {
    const match = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(alternative.trim())
    expect(match, `engines alternative "${alternative.trim()}" is not ^M.m.p`).not.toBeNull()
    const [min, minMinor, minPatch] = match!.slice(1).map(Number)
    return major === min && (minor! > minMinor! || (minor === minMinor && patch! >= minPatch!))
  })
}

const engines = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines.node

describe("installing the dependencies", () => {
  it("uses npm ci only: scripts/setup.sh, the Dockerfile and .ci/run never run npm install", () => {
    for (const file of INSTALLERS) {
      expect(commands(read(file)), file).not.toMatch(NPM_INSTALL)
      // No environment variable stands in for .npmrc.
      expect(commands(read(file)), file).not.toMatch(/ONNXRUNTIME_NODE_INSTALL/)
    }
    expect(commands(read("scripts/setup.sh"))).toMatch(/\bnpm ci\b/)
    expect(commands(read("Dockerfile"))).toMatch(/^RUN npm ci\b/m)
    // CI installs through setup.sh, whose npm ci fails on a lock out of sync with package.json.
    expect(commands(read(".ci/run"))).toMatch(/^bash scripts\/setup\.sh\b/m)
  })

  it("keeps onnxruntime-node's opt-out in .npmrc, which the image copies before npm ci", () => {
    const settings = read(".npmrc")
      .split("\n")
      .filter((line) => line.trim() !== "" && !/^\s*[#;]/.test(line))
      .map((line) => line.split("=").map((part) => part.trim()))
    expect(settings).toContainEqual(["onnxruntime-node-install", "skip"])
    const dockerfile = commands(read("Dockerfile"))
    const copy = /^COPY (.*) \.\/$/m.exec(dockerfile)
    expect(copy?.[1]?.split(/\s+/)).toEqual(expect.arrayContaining(["package.json", "package-lock.json", ".npmrc"]))
    expect(dockerfile.indexOf(copy![0])).toBeLessThan(dockerfile.search(/^RUN npm ci\b/m))
    expect(read(".dockerignore").split("\n").map((line) => line.trim())).not.toContain(".npmrc")
  })

  it("has npm hand the opt-out to install scripts, where onnxruntime-node's install script reads it as skip", async () => {
    // The script's own flag parser, run as npm runs install scripts (parseInstallFlag() is false for skip).
    const probe = "console.log(JSON.stringify([process.env.npm_config_onnxruntime_node_install, " +
      "require('./node_modules/onnxruntime-node/script/install-utils.js').parseInstallFlag()]))"
    const { stdout } = await run("npm", ["exec", "--silent", "-c", `node -e "${probe}"`], { env: envWithoutOptOut() })
    expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).toEqual(["skip", false])
  })

  it("builds the image on a Node that engines allows, as are the tests", () => {
    const from = /^FROM node:(\d+)-/m.exec(read("Dockerfile"))
    expect(from).not.toBeNull()
    const imageMajor = from![1]!
    expect(engines.split("||").map((alternative) => /^\^(\d+)\./.exec(alternative.trim())?.[1])).toContain(imageMajor)
    expect(allows(engines, process.versions.node), `Node ${process.versions.node} runs the tests; engines is ${engines}`).toBe(true)
    expect(allows(engines, "20.18.3")).toBe(false)
    expect(allows(engines, "24.0.0")).toBe(true)
  })
})

describe("package-lock.json", () => {
  const dirs: Array<string> = []
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  /**
   * npm with these arguments in a copy of package.json (edited), the lock and .npmrc, offline (a lock that
   * pins everything needs no registry) and without install scripts; the copy's lock afterwards.
   */
  const npmInCopy = async (args: ReadonlyArray<string>, edit: (pkg: Record<string, Record<string, string>>) => void = () => {}) => {
    const dir = mkdtempSync(join(tmpdir(), "reelwright-lock-"))
    dirs.push(dir)
    const pkg = JSON.parse(read("package.json")) as Record<string, Record<string, string>>
    edit(pkg)
    writeFileSync(join(dir, "package.json"), JSON.stringify(pkg, null, 2))
    copyFileSync("package-lock.json", join(dir, "package-lock.json"))
    copyFileSync(".npmrc", join(dir, ".npmrc"))
    // An explicit log level: under `npm test --silent` npm hands its children a silent one, which hides the error code.
    const flags = ["--ignore-scripts", "--offline", "--no-audit", "--no-fund", "--loglevel=error"]
    const result = await run("npm", [...args, ...flags], { cwd: dir, env: envWithoutOptOut() }).then(
      () => ({ code: 0, output: "" }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, output: e.stdout + e.stderr })
    )
    return { ...result, lock: JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")) as unknown }
  }

  it("is what npm install would write for package.json: not out of date", async () => {
    // Were the lock stale (a range, a dependency or engines changed without it), npm would rewrite it here.
    const { code, output, lock } = await npmInCopy(["install", "--package-lock-only"])
    expect({ code, output }).toEqual({ code: 0, output: "" })
    expect(lock, "package-lock.json is out of date: run npm install and commit it").toEqual(JSON.parse(read("package-lock.json")))
  })

  it("is accepted by npm ci, which the image and setup.sh run", async () => {
    const { code, output } = await npmInCopy(["ci", "--dry-run"])
    expect({ code, output }).toEqual({ code: 0, output: "" })
  })

  it("would fail npm ci if package.json asked for a version the lock does not pin", async () => {
    // Offline the registry is not asked for the missing version (ENOTCACHED); online npm ci says EUSAGE.
    const refused = await npmInCopy(["ci", "--dry-run"], (pkg) => {
      pkg["devDependencies"]!["vitest"] = "~3.1.0"
    })
    expect(refused.code).not.toBe(0)
    expect(refused.output).toMatch(/code (ENOTCACHED|EUSAGE)/)
  })
})
