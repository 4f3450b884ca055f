import type { ServiceDeps } from "../../src/core/deps.js";
import { createPageTokens } from "../../src/core/page-token.js";
import { createRefuse } from "../../src/errors/refusals.js";
import { createLogger } from "../../src/logger.js";
import { createEmbeddedHosting } from "../../src/platform/hosting/create-embedded-hosting.js";
import { TEST_MASTER_KEY } from "./test-server.js";

/**
 * Service dependencies for calling a job or a use case straight from a test: the test master
 * key, the embedded hosting over `db`, the real clock and a silent logger unless given, and no
 * verification job to wake.
 */
export function testServiceDeps(
  given: Pick<ServiceDeps, "db" | "config" | "steam"> & Partial<ServiceDeps>,
): ServiceDeps {
  return {
    refuse: createRefuse(given.config.errorDomain),
    now: () => new Date(),
    hosting: createEmbeddedHosting(given.db),
    masterKeys: { current: TEST_MASTER_KEY },
    pageTokens: createPageTokens({ current: TEST_MASTER_KEY }),
    wakeVerification: () => undefined,
    logger: createLogger("silent"),
    ...given,
  };
}
