// Shared by the Worker (workers/) and the renderer (container/). Pure TypeScript with no Node or Workers APIs.
export * from "./avatar-reasons";
