// The Dockerfile and the Kubernetes example, checked without a container engine: the final
// stage is read from the Dockerfile, and the compiled binary runs as the image would run it —
// as its non-root user, in /workspace's stand-in, with only what the stage installs (git,
// ripgrep) besides a Debian base's shell on PATH. Where a docker daemon answers, the image is
// built too.
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { reply, startFakeAnthropic, toolResults, type FakeServer } from "../fake-anthropic/index.ts";
import { clewCommand, clewEnv, tempDirectory } from "../helpers/clew-process.ts";

const ROOT = resolve(import.meta.dir, "../..");
const DOCKERFILE = readFileSync(join(ROOT, "Dockerfile"), "utf8");

interface FinalStage {
  base: string;
  packages: string[];
  user: string;
  workdir: string;
  entrypoint: string[];
  env: Record<string, string>;
  copiesBinaryTo: string | undefined;
}

/** The last stage of the Dockerfile: what the image a user runs is made of. */
function finalStage(dockerfile: string): FinalStage {
  // Continuation lines joined, comments dropped.
  const lines = dockerfile.replace(/\\\n/g, " ").split("\n").map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#"));
  const start = lines.findLastIndex((line) => /^FROM\s/i.test(line));
  const stage: FinalStage = { base: "", packages: [], user: "", workdir: "", entrypoint: [], env: {}, copiesBinaryTo: undefined };
  for (const line of lines.slice(start)) {
    const [instruction = "", ...rest] = line.split(/\s+/);
    const args = rest.join(" ");
    switch (instruction.toUpperCase()) {
      case "FROM":
        stage.base = args;
        break;
      case "RUN":
        for (const install of args.matchAll(/apt-get install ([^&;|]+)/g)) stage.packages.push(...(install[1] ?? "").split(/\s+/).filter((word) => word !== "" && !word.startsWith("-")));
        break;
      case "USER":
        stage.user = args;
        break;
      case "WORKDIR":
        stage.workdir = args;
        break;
      case "ENTRYPOINT":
        stage.entrypoint = JSON.parse(args) as string[];
        break;
      case "ENV":
        for (const pair of args.matchAll(/(\w+)=(\S+)/g)) stage.env[pair[1] as string] = pair[2] as string;
        break;
      case "COPY": {
        const copy = /--from=build\s+\S+\s+(\S+)/.exec(args);
        if (copy) stage.copiesBinaryTo = copy[1];
        break;
      }
    }
  }
  return stage;
}

/** What each package of the final stage puts on PATH; a package missing here fails the test, so the map follows the Dockerfile. */
const PACKAGE_BINARIES: Record<string, string[]> = { git: ["git"], ripgrep: ["rg"], "ca-certificates": [] };
/** What a Debian slim base already has and clew's Bash tool needs. */
const BASE_BINARIES = ["sh", "bash", "cat", "ls", "env", "mkdir", "rm", "mv", "cp", "grep", "sed"];

function which(name: string): string {
  const found = Bun.which(name, { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" });
  if (!found) throw new Error(`${name} is not installed on this machine; the container check needs it (CI installs it with apt)`);
  return found;
}

const stage = finalStage(DOCKERFILE);
const isRoot = process.getuid?.() === 0;
let server: FakeServer | undefined;
afterAll(async () => {
  await server?.close();
});

describe("the Dockerfile's final stage", () => {
  test("is a Debian slim base with git and ripgrep, clew as the entry point, a fixed non-root user, /workspace and no update checks", () => {
    expect(stage.base).toMatch(/^debian:[\w.-]+-slim$/);
    expect(stage.packages.sort()).toEqual(["ca-certificates", "git", "ripgrep"]);
    expect(stage.copiesBinaryTo).toBe("/usr/local/bin/clew");
    expect(stage.entrypoint).toEqual(["clew"]);
    expect(stage.user).toBe("10001:10001");
    expect(stage.workdir).toBe("/workspace");
    expect(stage.env.DISABLE_AUTOUPDATER).toBe("1");
    expect(stage.env.HOME).toBe("/home/clew");
    // Only what the build stage needs goes into the build context.
    const ignored = readFileSync(join(ROOT, ".dockerignore"), "utf8");
    expect(ignored.split("\n")[0]?.trim() === "*" || ignored.includes("\n*\n")).toBe(true);
    for (const needed of ["package.json", "bun.lock", "src", "scripts"]) expect(ignored).toContain(`!${needed}`);
  });

  test.skipIf(!isRoot)("the binary does a task as the image's user with only the stage's programs on PATH: git through Bash, Grep, Write", async () => {
    const [uid, gid] = stage.user.split(":").map(Number) as [number, number];
    const root = tempDirectory("clew-image-");
    // The image's user must be able to reach its files: the test folders are root's and private.
    for (let dir = root; dir !== "/" && dir !== "/tmp"; dir = dirname(dir)) chmodSync(dir, (statSync(dir).mode & 0o7777) | 0o711);
    const bin = join(root, "usr/local/bin");
    mkdirSync(bin, { recursive: true });
    const clew = join(bin, "clew");
    const [built] = clewCommand();
    if (!built || !existsSync(built) || built === "bun") throw new Error("the container check runs the compiled binary: build it (bun run build) or set CLEW_BIN");
    copyFileSync(built, clew);
    chmodSync(clew, 0o755);
    for (const name of [...stage.packages.flatMap((pkg) => {
      const binaries = PACKAGE_BINARIES[pkg];
      if (!binaries) throw new Error(`the Dockerfile installs ${pkg}: say in PACKAGE_BINARIES what it puts on PATH`);
      return binaries;
    }), ...BASE_BINARIES]) symlinkSync(which(name), join(bin, name));
    const home = join(root, "home/clew");
    const workspace = join(root, "workspace");
    mkdirSync(home, { recursive: true });
    mkdirSync(workspace);
    writeFileSync(join(workspace, "app.ts"), "// TODO: handle the empty input\nexport const app = 1;\n");
    for (const dir of [home, workspace, join(workspace, "app.ts")]) chownSync(dir, uid, gid);

    server = await startFakeAnthropic({
      script: [
        reply().toolUse("Bash", { command: "git init -q . && git add -A && git status --short" }),
        reply().toolUse("Grep", { pattern: "TODO", output_mode: "content", "-n": true }),
        reply().toolUse("Write", { file_path: join(workspace, "NOTES.md"), content: "# Notes\n" }),
        reply().text("Done in the container."),
      ],
    });
    const env = { ...clewEnv({ cwd: workspace, baseURL: server.url, configDir: home }), ...stage.env, HOME: home, CLEW_CONFIG_DIR: join(home, ".clew"), PATH: bin };
    const child = Bun.spawn(
      [which("setpriv"), `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", clew, "-p", "note the TODOs", "--output-format", "json", "--allowedTools", "Bash(git:*)", "Write", "--permission-mode", "acceptEdits"],
      { cwd: workspace, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" },
    );
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect((JSON.parse(stdout) as { result: string }).result).toBe("Done in the container.");
    const results = server.requests.filter((request) => request.endpoint === "messages").slice(1).map((request) => toolResults(request)[0]);
    expect(results.map((result) => result?.isError)).toEqual([false, false, false]);
    expect(results[0]?.text).toContain("A  app.ts");
    expect(results[1]?.text).toContain("app.ts:1:// TODO: handle the empty input");
    expect(readFileSync(join(workspace, "NOTES.md"), "utf8")).toBe("# Notes\n");
    // Written as the image's user, so a mounted volume keeps the user's ownership model.
    expect(statSync(join(workspace, "NOTES.md")).uid).toBe(uid);
  });

  const docker = Bun.which("docker");
  const daemon = docker !== null && Bun.spawnSync([docker, "info"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
  test.skipIf(!daemon)("builds with docker where a daemon answers, and the image prints the version (skipped here: no container engine runs on this machine)", () => {
    const build = Bun.spawnSync([docker as string, "build", "-q", "-t", "clew-test:ci", ROOT], { stdout: "pipe", stderr: "pipe" });
    expect(build.exitCode).toBe(0);
    const run = Bun.spawnSync([docker as string, "run", "--rm", "clew-test:ci", "--version"], { stdout: "pipe" });
    expect(run.stdout.toString()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("the Kubernetes example", () => {
  const documents = Bun.YAML.parse(readFileSync(join(ROOT, "examples/kubernetes/job.yaml"), "utf8")) as Array<Record<string, unknown>>;
  type Json = Record<string, unknown>;
  const get = (value: unknown, ...path: (string | number)[]): unknown => path.reduce<unknown>((at, key) => (at as Json | undefined)?.[key as string], value);

  test("an Indexed Job with one completion per prompt, the image's user, the key from a Secret and resource limits", () => {
    const config = documents.find((doc) => doc.kind === "ConfigMap");
    const job = documents.find((doc) => doc.kind === "Job");
    const prompts = Object.keys(get(config, "data") as Json);
    expect(prompts).toEqual(prompts.map((_, index) => String(index)));
    expect(get(job, "spec", "completionMode")).toBe("Indexed");
    expect(get(job, "spec", "completions")).toBe(prompts.length);
    const pod = get(job, "spec", "template", "spec") as Json;
    expect(`${get(pod, "securityContext", "runAsUser")}:${get(pod, "securityContext", "runAsGroup")}`).toBe(stage.user);
    const container = get(pod, "containers", 0) as Json;
    // Each pod reads the prompt named by its index, from the mounted ConfigMap.
    expect((get(container, "command") as string[]).join(" ")).toContain("< /prompts/$JOB_COMPLETION_INDEX");
    expect(get(container, "volumeMounts")).toContainEqual({ name: "prompts", mountPath: "/prompts", readOnly: true });
    expect(get(pod, "volumes")).toContainEqual({ name: "prompts", configMap: { name: get(config, "metadata", "name") } });
    expect(get(container, "env")).toContainEqual({ name: "ANTHROPIC_API_KEY", valueFrom: { secretKeyRef: { name: "anthropic", key: "api-key" } } });
    expect(get(container, "resources", "requests", "memory")).toBeDefined();
    expect(get(container, "resources", "limits", "memory")).toBeDefined();
    // The command's flags are ones clew accepts.
    expect((get(container, "command") as string[])[2]).toMatch(/^exec clew -p --output-format json --max-turns \d+ --max-budget-usd \d+/);
  });
});
