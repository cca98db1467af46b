import type { z } from "zod";
import { lazySchema } from "../util/lazy-schema.ts";
import { defineTool, type TodoItem, type ToolOutput } from "./types.ts";
import description from "./todo-write.md" with { type: "text" };

const input = lazySchema((z) => {
  const todo = z.object({
    content: z.string().min(1).describe("Imperative form, e.g. 'Run tests'"),
    status: z.enum(["pending", "in_progress", "completed"]).describe("Task state"),
    activeForm: z.string().min(1).describe("Continuous form, e.g. 'Running tests'"),
    // Older Claude Code versions sent an id; accepted so those transcripts replay, but not stored.
    id: z.string().optional().describe("Optional task id"),
  });
  return z.object({
    todos: z.array(todo).describe("The whole updated list"),
  });
});

export interface TodoWriteData {
  oldTodos: TodoItem[];
  newTodos: TodoItem[];
}

export const todoWriteTool = defineTool({
  name: "TodoWrite",
  description,
  get input() {
    return input();
  },
  // Only the in-memory session list changes: no file, process or network is touched, so it is
  // as harmless as a read and must never prompt for permission or block concurrent reads.
  access: "read",
  subject: () => "",
  async run(args, ctx): Promise<ToolOutput> {
    const oldTodos = ctx.session.todos;
    const newTodos: TodoItem[] = args.todos.map(({ content, status, activeForm }) => ({ content, status, activeForm }));
    ctx.session.todos = newTodos;
    const data: TodoWriteData = { oldTodos, newTodos };
    const done = newTodos.filter((item) => item.status === "completed").length;
    return {
      content:
        "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable",
      display: { summary: `${done}/${newTodos.length} done` },
      data,
    };
  },
});
