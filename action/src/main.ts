/**
 * The action: install (or find) clew, run the prompt headless with the inputs as flags, and
 * hand back the json result as outputs and a job summary. The step fails with the result's error
 * when clew's exit code is not 0 (cli-headless.md §4: error results and usage errors exit 1).
 * Nothing is uploaded. ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL reach clew from the step's env.
 */
import * as core from "@actions/core";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clewArguments, InputError, promptStdin, readInputs } from "./inputs.ts";
import { existingClew, InstallError, installRelease, trustedKeyPem, type InstalledClew } from "./install.ts";
import { runnerPlatform } from "./platform.ts";
import { ReleaseFileError } from "./release-files.ts";
import { PROJECT_RELEASE_PUBLIC_KEY } from "./release-key.ts";
import { failureMessage, runClew } from "./run-clew.ts";
import { summaryMarkdown } from "./summary.ts";

/** What the runner tells the action through its environment. */
interface Runner {
  workspace: string;
  toolCache: string;
  path: string;
}

function runnerFromEnvironment(env: NodeJS.ProcessEnv): Runner {
  return {
    workspace: env.GITHUB_WORKSPACE || process.cwd(),
    toolCache: env.RUNNER_TOOL_CACHE || join(env.RUNNER_TEMP || tmpdir(), "clew-tool-cache"),
    path: env.PATH ?? "",
  };
}

async function findClew(clewPath: string | undefined, downloadUrl: string, trustedKey: string | undefined, runner: Runner): Promise<InstalledClew> {
  if (clewPath !== undefined) {
    const found = await existingClew(clewPath, runner.path);
    core.info(`Using clew ${found.version} at ${found.path} (clew-path; nothing downloaded)`);
    return found;
  }
  const platform = runnerPlatform();
  if ("problem" in platform) throw new InstallError(`${platform.problem}; set clew-path to a clew built for this runner`);
  return await installRelease({
    downloadUrl,
    trustedKeyPem: trustedKeyPem(trustedKey, PROJECT_RELEASE_PUBLIC_KEY, runner.workspace),
    platform: platform.platform,
    toolCache: runner.toolCache,
    log: (line) => core.info(line),
  });
}

export async function run(): Promise<void> {
  try {
    const runner = runnerFromEnvironment(process.env);
    const inputs = readInputs((name) => core.getInput(name), runner.workspace);
    const clew = await findClew(inputs.clewPath, inputs.downloadUrl, inputs.trustedKey, runner);
    const args = clewArguments(inputs);
    core.info(`Running clew ${args.slice(0, args.indexOf("--")).join(" ")} in ${inputs.workingDirectory}`);
    const outcome = await runClew(clew.path, args, {
      cwd: inputs.workingDirectory,
      // A CI run never updates itself: the binary is the one this step verified.
      env: { DISABLE_AUTOUPDATER: "1", ...process.env },
      stdin: promptStdin(inputs),
      onStderr: (text) => process.stderr.write(text),
    });
    core.setOutput("result", outcome.result === undefined ? "" : JSON.stringify(outcome.result));
    core.setOutput("session-id", outcome.result?.session_id ?? "");
    core.setOutput("cost-usd", outcome.result?.total_cost_usd === undefined ? "" : String(outcome.result.total_cost_usd));
    core.setOutput("exit-code", String(outcome.exitCode));
    try {
      await core.summary.addRaw(summaryMarkdown(outcome, clew, "clew")).write();
    } catch (error) {
      // The outputs are set and the run's outcome decides the step; a summary file the runner did not provide does not.
      core.warning(`the job summary could not be written: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (outcome.exitCode !== 0) core.setFailed(failureMessage(outcome));
  } catch (error) {
    if (error instanceof InputError || error instanceof InstallError || error instanceof ReleaseFileError) core.setFailed(error.message);
    else core.setFailed(error instanceof Error ? (error.stack ?? error.message) : String(error));
  }
}
