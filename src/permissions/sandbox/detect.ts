/**
 * Whether the sandbox can start here (spec §7.1, §7.5): bubblewrap on Linux, which must be able
 * to make its namespaces (an unprivileged user needs user namespaces; Ubuntu's AppArmor may refuse
 * them), and sandbox-exec on macOS. Linux is probed by running bwrap once, as a command would.
 */
import type { SandboxAvailability } from "./types.ts";

export interface ProbeInput {
  platform: string;
  /** PATH to look tools up on. */
  path: string;
  /** `sandbox.bwrapPath` (managed settings), used instead of PATH when set. */
  bwrapPath?: string;
  isRoot: boolean;
}

export interface LinuxTools {
  bwrap: string;
  nsenter: string | undefined;
}

export function findLinuxTools(input: ProbeInput): LinuxTools | undefined {
  const bwrap = input.bwrapPath ?? Bun.which("bwrap", { PATH: input.path });
  if (!bwrap) return undefined;
  return { bwrap, nsenter: Bun.which("nsenter", { PATH: input.path }) ?? undefined };
}

export function probeSandbox(input: ProbeInput): SandboxAvailability {
  if (input.platform === "darwin") {
    const tool = Bun.which("sandbox-exec", { PATH: `${input.path}:/usr/bin` });
    return tool ? { available: true, platform: "darwin", tool } : { available: false, reason: "sandbox-exec was not found", fix: "it ships with macOS in /usr/bin; check PATH" };
  }
  if (input.platform !== "linux") {
    return { available: false, reason: `the sandbox does not support ${input.platform}`, fix: "it runs on Linux (bubblewrap) and macOS (sandbox-exec)" };
  }
  const tools = findLinuxTools(input);
  if (!tools) return { available: false, reason: "bubblewrap (bwrap) is not on PATH", fix: "install it (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)" };
  const args = [tools.bwrap, "--die-with-parent", "--unshare-net", "--unshare-pid", ...(input.isRoot ? ["--cap-drop", "ALL"] : []), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "/bin/sh", "-c", ":"];
  try {
    const run = Bun.spawnSync(args, { stdin: "ignore", stdout: "ignore", stderr: "pipe", env: { PATH: input.path } });
    if (run.exitCode === 0) return { available: true, platform: "linux", tool: tools.bwrap };
    const said = run.stderr.toString().trim().split("\n")[0] ?? "";
    return {
      available: false,
      reason: `bwrap could not create the sandbox's namespaces${said ? ` (${said})` : ""}`,
      fix: "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04+ an AppArmor profile for bwrap, or kernel.apparmor_restrict_unprivileged_userns=0)",
    };
  } catch (error) {
    return { available: false, reason: `bwrap could not be run (${error instanceof Error ? error.message : String(error)})`, fix: "check that the bwrap binary works: bwrap --ro-bind / / true" };
  }
}
