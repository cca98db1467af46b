import { describe, expect, test } from "bun:test";
import { todoWriteTool } from "../../../src/tools/todo-write.ts";
import type { TodoItem } from "../../../src/tools/types.ts";
import { runTool, tempDir, toolSession } from "../../helpers/tool-session.ts";

const confirmation =
  "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable";

describe("TodoWrite", () => {
  test("replaces the session list and reports old and new lists", async () => {
    const previous: TodoItem[] = [{ content: "Old task", status: "completed", activeForm: "Doing old task" }];
    const session = toolSession(tempDir(), { todos: previous });
    const todos: TodoItem[] = [
      { content: "Run tests", status: "in_progress", activeForm: "Running tests" },
      { content: "Fix lint", status: "pending", activeForm: "Fixing lint" },
    ];
    const output = await runTool(todoWriteTool, { todos }, session);
    expect(output).toEqual({
      content: confirmation,
      display: { summary: "0/2 done" },
      data: { oldTodos: previous, newTodos: todos },
    });
    expect(session.todos).toEqual(todos);
  });

  test("tolerates an id but does not store it, and accepts an empty list", async () => {
    const session = toolSession(tempDir());
    await runTool(todoWriteTool, { todos: [{ id: "1", content: "Ship", status: "completed", activeForm: "Shipping" }] }, session);
    expect(session.todos).toEqual([{ content: "Ship", status: "completed", activeForm: "Shipping" }]);
    const cleared = await runTool(todoWriteTool, { todos: [] }, session);
    expect(cleared.data).toEqual({ oldTodos: [{ content: "Ship", status: "completed", activeForm: "Shipping" }], newTodos: [] });
    expect(session.todos).toEqual([]);
  });

  test("the schema rejects an unknown status and empty text", () => {
    const bad = [
      { content: "Task", status: "done", activeForm: "Doing task" },
      { content: "", status: "pending", activeForm: "Doing task" },
      { content: "Task", status: "pending", activeForm: "" },
      { content: "Task", status: "pending" },
    ];
    for (const item of bad) {
      expect(todoWriteTool.input.safeParse({ todos: [item] }).success).toBe(false);
    }
    expect(todoWriteTool.input.safeParse({ todos: [{ content: "Task", status: "pending", activeForm: "Doing" }] }).success).toBe(true);
  });

  test("is a read-access tool", () => {
    expect(todoWriteTool.access).toBe("read");
    expect(todoWriteTool.name).toBe("TodoWrite");
  });
});
