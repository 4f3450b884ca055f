import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { Transfer_Mode } from "../../gen/encore/campaign/v1/transfer_pb.js";
import { Operations } from "../../gen/google/longrunning/operations_pb.js";
import { seedStudio } from "../support/seed-hosting.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { seedMixedProject } from "./support/transfer-fixture.js";

describe("the service's own mover job", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("finishes a MODE_MOVE started over gRPC without anyone else's help", async () => {
    const db = server.db.database.prisma;
    const studio = await seedStudio(db);
    const mixed = await seedMixedProject(db, studio, { downRegion: "bg-down", createTime: new Date() });
    const campaigns = server.client(CampaignService, "grpc", studio.tokens.OWNER);
    const operations = server.client(Operations, "grpc", studio.tokens.OWNER);
    const started = await campaigns.startTransfer({
      name: studio.name,
      sourceProject: mixed.name,
      mode: Transfer_Mode.MOVE,
      resources: [mixed.server, mixed.address],
      acknowledgeWarnings: true,
    });
    // The mover looks for work every second; the test waits for it, bounded by the test timeout.
    let operation = started;
    while (!operation.done) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      operation = await operations.getOperation({ name: started.name });
    }
    expect(operation.result.case).toBe("response");
    expect(await db.resource.count({ where: { projectId: studio.projectId } })).toBe(2);
  });
});
