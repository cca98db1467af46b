/**
 * Runs commands inside the sandbox on Linux: a per-session directory (the commands' private /tmp,
 * the unreadable masks, the proxy's socket), the filtering proxy started at the first sandboxed
 * command, and the network namespace the commands share.
 *
 * Network, measured here (bwrap 0.8, 2 cores): a forwarder started per command costs its own
 * start-up on every call (bun ≈ 30 ms, perl with IO::Socket ≈ 25 ms), far over the 15 ms budget;
 * one forwarder per session in its own namespace, joined by each command with `nsenter --net`,
 * costs ≈ 1 ms per call. Joining another namespace needs privilege over it, which root has and an
 * unprivileged user (whose bwrap makes its own user namespace) does not: there the forwarder runs
 * in front of each command instead — slower, equally contained.
 */
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bwrapArgs, type PathKind } from "./bwrap.ts";
import { FORWARDER_SOURCE } from "./forwarder.ts";
import { protectedPaths } from "./policy.ts";
import { startFilteringProxy, type FilteringProxy, type Refusal } from "./proxy.ts";
import type { SandboxBoundary, SandboxLaunch, SandboxPolicy } from "./types.ts";

/** Where the forwarder listens inside the namespace; the namespace is private, so a fixed port cannot clash. */
export const FORWARD_PORT = 3128;
const READY_TIMEOUT_MS = 15_000;
/** The proxy's socket directory as a per-command sandbox sees it (under its private /tmp). */
const INSIDE_PROXY_DIR = "/tmp/.clew-proxy";

export interface LinuxSandboxOptions {
  /** The session's policy: its network lists serve every command; its paths, those launched without a boundary of their own. */
  policy: SandboxPolicy;
  workingDirs: readonly string[];
  bwrap: string;
  /** util-linux nsenter, for joining the session's network namespace; undefined: a forwarder per command. */
  nsenter: string | undefined;
  /** A binary that acts as `bun` with BUN_BE_BUN=1 (the clew binary, or bun itself under test). */
  bunBinary: string;
  isRoot: boolean;
  /** Where the per-session directory is made (the system temp dir). */
  tmpRoot: string;
  /** PATH for the forwarder. */
  path: string;
}

interface Holder {
  /**
   * The namespace to join, as a descriptor clew holds open (`/proc/<clew>/fd/<n>`), not as the
   * holder's `/proc/<pid>/ns/net`: should the holder die and its pid be reused, a command must
   * never join some other process's namespace — the held one stays the sandbox's (with no
   * forwarder left, its connections fail).
   */
  netns: string;
  fd: number;
}

function kindOf(path: string): PathKind {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Folders of sessions that ended without their exit handler (killed by a signal), named by their pid. */
function removeStaleDirs(tmpRoot: string): void {
  let names: string[];
  try {
    names = readdirSync(tmpRoot);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^clew-sandbox-(\d+)-/.exec(name)?.[1];
    if (pid === undefined || alive(Number(pid))) continue;
    const dir = join(tmpRoot, name);
    try {
      chmodSync(join(dir, "denied-dir"), 0o700);
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another user's folder, or one being removed right now: not ours to clear.
    }
  }
}

export class LinuxSandbox {
  private dir: string | undefined;
  private proxy: FilteringProxy | undefined;
  private holder: Promise<Holder> | undefined;
  private holderProcess: ReturnType<typeof Bun.spawn> | undefined;
  private readonly netnsFds: number[] = [];

  constructor(private readonly options: LinuxSandboxOptions) {}

  /** Sequence number of the latest refused connection: a command reports the refusals after it. */
  get refusalSeq(): number {
    return this.proxy?.seq ?? 0;
  }

  refusalsAfter(seq: number): Refusal[] {
    return (this.proxy?.refusals ?? []).filter((refusal) => refusal.seq > seq);
  }

  private sessionDir(): string {
    if (this.dir !== undefined) return this.dir;
    removeStaleDirs(this.options.tmpRoot);
    const dir = mkdtempSync(join(this.options.tmpRoot, `clew-sandbox-${process.pid}-`));
    for (const sub of ["tmp", "run"]) mkdirSync(join(dir, sub), { mode: 0o700 });
    chmodSync(join(dir, "tmp"), 0o1777);
    writeFileSync(join(dir, "denied-file"), "");
    chmodSync(join(dir, "denied-file"), 0);
    mkdirSync(join(dir, "denied-dir"), { mode: 0 });
    chmodSync(join(dir, "denied-dir"), 0);
    this.dir = dir;
    this.proxy = startFilteringProxy({ unix: join(dir, "run", "proxy.sock") }, () => this.options.policy.network);
    return dir;
  }

  private startHolder(dir: string): Promise<Holder> {
    const { bwrap, bunBinary } = this.options;
    const child = Bun.spawn([bwrap, "--die-with-parent", "--unshare-net", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", bunBinary, "-e", FORWARDER_SOURCE, String(FORWARD_PORT), join(dir, "run", "proxy.sock")], {
      env: { PATH: this.options.path, BUN_BE_BUN: "1" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const ready = (async (): Promise<Holder> => {
      const reader = child.stdout.getReader();
      const decoder = new TextDecoder();
      let text = "";
      const timer = setTimeout(() => child.kill(), READY_TIMEOUT_MS);
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
          const match = /ready (\d+)\n/.exec(text);
          if (match) {
            const fd = openSync(`/proc/${match[1]}/ns/net`, "r");
            this.netnsFds.push(fd);
            return { fd, netns: `/proc/${process.pid}/fd/${fd}` };
          }
        }
      } finally {
        clearTimeout(timer);
        reader.releaseLock();
      }
      const stderr = await new Response(child.stderr).text().catch(() => "");
      throw new Error(`the sandbox's network forwarder did not start${stderr.trim() ? `: ${stderr.trim()}` : ""}`);
    })();
    child.unref();
    this.holderProcess = child;
    ready.catch(() => {
      this.holder = undefined;
    });
    void child.exited.then(() => {
      this.holder = undefined;
    });
    return ready;
  }

  /**
   * How to start one command in `cwd` inside the sandbox, under `boundary` (a helper's in its
   * worktree; by default the session's). Every boundary shares the session's /tmp, proxy and network.
   */
  async launch(cwd: string, boundary?: SandboxBoundary): Promise<SandboxLaunch> {
    const dir = this.sessionDir();
    const nsenter = this.options.isRoot ? this.options.nsenter : undefined;
    const perCommand = nsenter === undefined;
    let joinNetwork: string[] | undefined;
    if (nsenter !== undefined) {
      this.holder ??= this.startHolder(dir);
      const holder = await this.holder;
      joinNetwork = [nsenter, `--net=${holder.netns}`, "--"];
    }
    const rules = boundary ?? { policy: this.options.policy, protectedPaths: protectedPaths(this.options.policy, this.options.workingDirs), readOnlyDirs: [] };
    const args = bwrapArgs(rules.policy, {
      bwrap: this.options.bwrap,
      ...(joinNetwork ? { joinNetwork } : {}),
      sessionDir: dir,
      deniedFile: join(dir, "denied-file"),
      deniedDir: join(dir, "denied-dir"),
      cwd,
      protectedPaths: rules.protectedPaths,
      readOnlyDirs: rules.readOnlyDirs,
      isRoot: this.options.isRoot,
      unshareNet: perCommand,
      kindOf,
    });
    if (perCommand) args.splice(args.length - 3, 0, "--ro-bind", join(dir, "run"), INSIDE_PROXY_DIR);
    const forwarder = perCommand ? [this.options.bunBinary, "-e", FORWARDER_SOURCE, String(FORWARD_PORT), `${INSIDE_PROXY_DIR}/proxy.sock`] : [];
    const proxyUrl = `http://127.0.0.1:${FORWARD_PORT}`;
    return {
      wrap: (argv) => [...args, ...forwarder, ...argv],
      environment: (base) => {
        const env: Record<string, string> = { ...base };
        for (const name of ["NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"]) delete env[name];
        Object.assign(env, { HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl, http_proxy: proxyUrl, https_proxy: proxyUrl, TMPDIR: "/tmp", CLEW_SANDBOX: "1" });
        if (perCommand) env.BUN_BE_BUN = "1";
        return env;
      },
      scratch: { inside: "/tmp", outside: join(dir, "tmp") },
    };
  }

  /** Synchronous, so it can run in a process `exit` handler. */
  close(): void {
    this.holderProcess?.kill("SIGKILL");
    this.holderProcess = undefined;
    this.holder = undefined;
    for (const fd of this.netnsFds.splice(0)) closeSync(fd);
    this.proxy?.stop();
    if (this.dir !== undefined) {
      // An unprivileged user cannot list the unreadable mask to remove it.
      chmodSync(join(this.dir, "denied-dir"), 0o700);
      rmSync(this.dir, { recursive: true, force: true });
    }
    this.dir = undefined;
    this.proxy = undefined;
  }
}
