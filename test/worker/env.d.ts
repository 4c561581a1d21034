declare module "cloudflare:test" {
  interface ProvidedEnv extends import("../../workers/env").Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}
declare namespace Cloudflare {
  interface Env extends import("../../workers/env").Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}
