import type { TestProject } from "vitest/node";
import { startE2eStack } from "./global-setup";

// Three renderer processes, three instances of the Worker's pool (docs/operations.md, "Capacity").
export default (project: TestProject) => startE2eStack(project, 3);
