import type { TestProject } from "vitest/node";
import { BASE, startE2eStack } from "./global-setup";

// Three renderer processes, three instances of the Worker's pool (docs/operations.md, "Capacity"). Ports of
// their own (the e2e stack has BASE to BASE + 2, websocket-compression.test.ts BASE + 10 and + 11), so a bare
// `vitest run` can start both stacks. Audio over 15 s renders split (segments.test.ts; renderer-scale.test.ts's
// 2 s stay whole).
export default (project: TestProject) => startE2eStack(project, 3, BASE + 20, { SPLIT_AFTER_SECONDS: "15" });
