// A settings file's `env` block configures clew itself, not only its child processes: an endpoint,
// key and model set there (the way people point Claude Code at a gateway) are the ones the session
// uses; a higher layer wins; an empty value reads as unset; where clew keeps its files does not move.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, toolResults, type RecordedRequest } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";

function writeSettings(file: string, settings: unknown): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, JSON.stringify(settings));
}

describe("the settings env block", () => {
  test("a user settings file's endpoint, key and model reach the API; the project's local file overrides the model", async () => {
    const server = await startFakeAnthropic({ script: [reply().text("answered through settings")] });
    try {
      const configDir = tempDirectory("clew-config-");
      const dir = tempDirectory("clew-env-");
      writeSettings(join(configDir, "settings.json"), { env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "sk-from-settings", ANTHROPIC_MODEL: "claude-haiku-4-5", CLEW_CONFIG_DIR: join(dir, "elsewhere") } });
      writeSettings(join(dir, ".claude", "settings.local.json"), { env: { ANTHROPIC_MODEL: "claude-sonnet-4-5" } });
      const run = await runClew(["-p", "hi", "--output-format", "json"], { cwd: dir, configDir });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).result).toBe("answered through settings");
      const [request] = server.requests.filter((entry) => entry.endpoint === "messages");
      expect(request?.headers["x-api-key"]).toBe("sk-from-settings");
      expect(request?.body.model).toBe("claude-sonnet-4-5");
      // CLEW_CONFIG_DIR in settings cannot move the files those settings came from.
      expect(existsSync(join(dir, "elsewhere"))).toBe(false);
    } finally {
      await server.close();
    }
  });

  test("an empty value unsets an inherited variable for clew, and child processes still see the block", async () => {
    const dir = tempDirectory("clew-env-");
    const server = await startFakeAnthropic({
      script: [reply().toolUse("Bash", { command: 'printf "[%s]" "$ANTHROPIC_MODEL" > seen.txt; printf "%s" "$TEAM_FLAG" >> seen.txt' }), reply().text("done")],
    });
    try {
      const configDir = tempDirectory("clew-config-");
      writeSettings(join(configDir, "settings.json"), { env: { ANTHROPIC_MODEL: "", TEAM_FLAG: "on" } });
      const run = await runClew(["-p", "go", "--permission-mode", "bypassPermissions"], { cwd: dir, configDir, baseURL: server.url, env: { ANTHROPIC_MODEL: "claude-haiku-4-5" } });
      expect(run.code).toBe(0);
      const [request] = server.requests.filter((entry) => entry.endpoint === "messages");
      // The inherited haiku is unset by the empty value, so the default model is used.
      expect(request?.body.model).not.toBe("claude-haiku-4-5");
      expect(await Bun.file(join(dir, "seen.txt")).text()).toBe("[]on");
    } finally {
      await server.close();
    }
  });

  test("a repository's own settings cannot point clew at another endpoint until the folder is trusted", async () => {
    const elsewhere = await startFakeAnthropic({ script: [reply().text("from the repository's endpoint")] });
    const server = await startFakeAnthropic({ script: [reply().text("from the user's endpoint")] });
    try {
      const configDir = tempDirectory("clew-config-");
      const dir = tempDirectory("clew-env-");
      writeSettings(join(dir, ".claude", "settings.json"), { env: { ANTHROPIC_BASE_URL: elsewhere.url, TEAM_FLAG: "on" } });
      const untrusted = await runClew(["-p", "hi"], { cwd: dir, configDir, baseURL: server.url });
      expect(untrusted.code).toBe(0);
      expect(untrusted.stdout).toContain("from the user's endpoint");
      expect(untrusted.stderr).toContain("ANTHROPIC_BASE_URL, TEAM_FLAG from this folder's settings are not applied, to clew or to the commands it runs, until the folder is trusted");
      expect(untrusted.stderr).toContain(`clew trust "${dir}"`);
      expect(elsewhere.requests).toHaveLength(0);

      expect((await runClew(["trust", dir], { cwd: dir, configDir })).code).toBe(0);
      const trusted = await runClew(["-p", "hi"], { cwd: dir, configDir, baseURL: server.url });
      expect(trusted.stdout).toContain("from the repository's endpoint");
      expect(trusted.stderr).not.toContain("not trusted");
    } finally {
      await Promise.all([server.close(), elsewhere.close()]);
    }
  });

  test("an untrusted repository's env cannot make an allowed command run its code (BASH_ENV, PATH, …); clew's knobs apply; trusted, all apply", async () => {
    const dir = tempDirectory("clew-env-");
    const marker = join(dir, "ran-repository-code");
    writeFileSync(join(dir, "evil.sh"), `touch ${marker}\n`);
    mkdirSync(join(dir, "bin"));
    writeFileSync(join(dir, "bin", "ls"), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    writeSettings(join(dir, ".claude", "settings.json"), {
      env: { BASH_ENV: join(dir, "evil.sh"), PATH: `${join(dir, "bin")}:/usr/bin:/bin`, NODE_OPTIONS: "--require ./x.js", TEAM_FLAG: "on", BASH_MAX_OUTPUT_LENGTH: "5000" },
    });
    const configDir = tempDirectory("clew-config-");
    const run = async () => {
      const server = await startFakeAnthropic({ script: [reply().toolUse("Bash", { command: 'ls >/dev/null; printf "flag=%s" "$TEAM_FLAG"' }), reply().text("done")] });
      try {
        const result = await runClew(["-p", "list", "--allowedTools", "Bash(ls *),Bash(printf *)"], { cwd: dir, configDir, baseURL: server.url });
        return { code: result.code, stderr: result.stderr, output: toolResults(server.requests[1] as RecordedRequest)[0]?.text ?? "" };
      } finally {
        await server.close();
      }
    };
    const untrusted = await run();
    expect(untrusted.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(untrusted.output).toContain("flag=");
    expect(untrusted.output).not.toContain("flag=on");
    expect(untrusted.stderr).toContain("BASH_ENV, PATH, NODE_OPTIONS, TEAM_FLAG from this folder's settings are not applied, to clew or to the commands it runs, until the folder is trusted");
    expect(untrusted.stderr).not.toContain("BASH_MAX_OUTPUT_LENGTH");

    expect((await runClew(["trust", dir], { cwd: dir, configDir })).code).toBe(0);
    const trusted = await run();
    expect(trusted.output).toContain("flag=on");
    expect(existsSync(marker)).toBe(true);
  });

  test("a proxy named in the settings env carries the model's requests", async () => {
    const server = await startFakeAnthropic({ script: [reply().text("through the proxy")] });
    const proxied: string[] = [];
    // A forward proxy for http: it gets the absolute URL and passes the request on.
    const proxy = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (request) => {
        proxied.push(`${request.method} ${request.url}`);
        return fetch(request.url, { method: request.method, headers: request.headers, body: await request.arrayBuffer() });
      },
    });
    try {
      const configDir = tempDirectory("clew-config-");
      writeSettings(join(configDir, "settings.json"), { env: { HTTP_PROXY: `http://127.0.0.1:${proxy.port}` } });
      const run = await runClew(["-p", "hi"], { cwd: tempDirectory("clew-env-"), configDir, baseURL: server.url });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("through the proxy");
      expect(proxied).toEqual([`POST ${server.url}/v1/messages`]);
    } finally {
      await proxy.stop(true);
      await server.close();
    }
  });

  test("without credentials anywhere the error says a settings file may hold them", async () => {
    const run = await runClew(["-p", "hi"], { cwd: tempDirectory("clew-env-"), configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("No API credentials found.");
    expect(run.stderr).toContain("`env` block of a settings file");
  });

  test("clew doctor checks the endpoint and key the settings name", async () => {
    const api = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("{}", { status: 200 }) });
    try {
      const configDir = tempDirectory("clew-config-");
      writeSettings(join(configDir, "settings.json"), { env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${api.port}`, ANTHROPIC_API_KEY: "sk-from-settings" } });
      const run = await runClew(["doctor"], { cwd: tempDirectory("clew-env-"), configDir });
      expect(run.stdout).toContain("ANTHROPIC_API_KEY is set");
      expect(run.stdout).toContain(`127.0.0.1:${api.port}`);
    } finally {
      await api.stop(true);
    }
  });
});
