/**
 * The `sandbox` section (spec §7.4). Loose objects: the keys clew does not act on yet
 * (`ignoreViolations`, `credentials`, proxy ports, …) pass through untouched, so a file written
 * for Claude Code keeps every key.
 */
import type { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.ts";

export const sandboxSchema = lazySchema((z) =>
  z.looseObject({
    enabled: z.boolean().optional(),
    failIfUnavailable: z.boolean().optional(),
    autoAllowBashIfSandboxed: z.boolean().optional(),
    excludedCommands: z.array(z.string()).optional(),
    allowUnsandboxedCommands: z.boolean().optional(),
    filesystem: z
      .looseObject({
        allowWrite: z.array(z.string()).optional(),
        denyWrite: z.array(z.string()).optional(),
        denyRead: z.array(z.string()).optional(),
        allowRead: z.array(z.string()).optional(),
        allowManagedReadPathsOnly: z.boolean().optional(),
        disabled: z.boolean().optional(),
      })
      .optional(),
    network: z
      .looseObject({
        allowedDomains: z.array(z.string()).optional(),
        deniedDomains: z.array(z.string()).optional(),
        allowLocalBinding: z.boolean().optional(),
        strictAllowlist: z.boolean().optional(),
        allowManagedDomainsOnly: z.boolean().optional(),
      })
      .optional(),
    bwrapPath: z.string().optional(),
  }),
);

export type SandboxSettings = z.infer<ReturnType<typeof sandboxSchema>>;
