/**
 * Runs commands under Seatbelt on macOS: `sandbox-exec -p <profile>`, with the filtering proxy
 * on a loopback TCP port (no network namespace there: the profile allows only that port out).
 * Written and unit-tested on Linux through its profile text; run by users on macOS.
 */
import { mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { protectedPaths } from "./policy.ts";
import { startFilteringProxy, type FilteringProxy, type Refusal } from "./proxy.ts";
import { seatbeltProfile } from "./seatbelt.ts";
import type { SandboxBoundary, SandboxLaunch, SandboxPolicy } from "./types.ts";

export interface DarwinSandboxOptions {
  policy: SandboxPolicy;
  workingDirs: readonly string[];
  sandboxExec: string;
  tmpRoot: string;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return true;
  }
}

export class DarwinSandbox {
  private dir: string | undefined;
  private proxy: FilteringProxy | undefined;

  constructor(private readonly options: DarwinSandboxOptions) {}

  get refusalSeq(): number {
    return this.proxy?.seq ?? 0;
  }

  refusalsAfter(seq: number): Refusal[] {
    return (this.proxy?.refusals ?? []).filter((refusal) => refusal.seq > seq);
  }

  /** Under `boundary` (a helper's in its worktree; by default the session's); reads are open everywhere, so `readOnlyDirs` needs nothing here. */
  async launch(_cwd: string, boundary?: SandboxBoundary): Promise<SandboxLaunch> {
    // /tmp is a symlink to /private/tmp on macOS; Seatbelt matches the real path.
    this.dir ??= realpathSync(mkdtempSync(join(this.options.tmpRoot, "clew-sandbox-")));
    this.proxy ??= startFilteringProxy({ hostname: "127.0.0.1", port: 0 }, () => this.options.policy.network);
    const port = this.proxy.port ?? 0;
    const policy = boundary?.policy ?? this.options.policy;
    const shielded = boundary?.protectedPaths ?? protectedPaths(this.options.policy, this.options.workingDirs);
    const profile = seatbeltProfile(policy, { tmpDir: this.dir, proxyPort: port, protectedPaths: shielded, isDir });
    const proxyUrl = `http://127.0.0.1:${port}`;
    const dir = this.dir;
    return {
      wrap: (argv) => [this.options.sandboxExec, "-p", profile, ...argv],
      environment: (base) => {
        const env: Record<string, string> = { ...base };
        for (const name of ["NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"]) delete env[name];
        return { ...env, HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl, http_proxy: proxyUrl, https_proxy: proxyUrl, TMPDIR: dir, CLEW_SANDBOX: "1" };
      },
      scratch: { inside: dir, outside: dir },
    };
  }

  close(): void {
    this.proxy?.stop();
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
    this.proxy = undefined;
  }
}
