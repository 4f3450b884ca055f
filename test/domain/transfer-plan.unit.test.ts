import { describe, expect, it } from "vitest";
import { type PlanResource, planTransfer } from "../../src/domain/transfer-plan.js";

const GAME = "game-1";

function resource(name: string, overrides: Partial<PlanResource> = {}): PlanResource {
  return {
    name,
    kind: "SERVER",
    region: "eu-west",
    gameId: GAME,
    clientFacing: false,
    movable: true,
    state: "RUNNING",
    diskCopyable: true,
    ...overrides,
  };
}

describe("planTransfer", () => {
  it.each([
    ["only the game's movable resources: convert", [resource("a"), resource("b", { kind: "DISK" })], [], "CONVERT", 0],
    ["nothing in the project: move (nothing to convert)", [], [], "MOVE", 0],
    [
      "another game's server: move, it stays behind",
      [resource("a"), resource("x", { gameId: "other" })],
      [],
      "MOVE",
      1,
    ],
    ["a resource of no game: move", [resource("a"), resource("x", { gameId: null })], [], "MOVE", 1],
    ["an unmovable item: move", [resource("a"), resource("d", { movable: false })], [], "MOVE", 1],
    ["a region that could not be listed: move", [resource("a")], ["ap-south"], "MOVE", 1],
    [
      "client-facing address: still convert, with a warning for a move",
      [resource("ip", { kind: "ADDRESS", clientFacing: true })],
      [],
      "CONVERT",
      1,
    ],
    [
      "a stopped server whose disk cannot be copied: convert, warned",
      [resource("s", { state: "STOPPED", diskCopyable: false })],
      [],
      "CONVERT",
      1,
    ],
  ] as const)("%s", (_, resources, unlisted, mode, warnings) => {
    const plan = planTransfer({ campaignGameId: GAME, resources, unlistedRegions: unlisted });
    expect(plan.recommendedMode).toBe(mode);
    expect(plan.warnings).toHaveLength(warnings);
    expect(plan.explanation).not.toBe("");
  });

  it("describes every candidate, and marks only stopped servers with uncopyable disks for acknowledgement", () => {
    const plan = planTransfer({
      campaignGameId: GAME,
      resources: [
        resource("s", { state: "STOPPED", diskCopyable: false }),
        resource("disk", { kind: "DISK", state: "STOPPED", diskCopyable: false }),
        resource("run", { diskCopyable: false }),
        resource("ip", { kind: "ADDRESS", clientFacing: true, gameId: "other", region: "us-east" }),
      ],
      unlistedRegions: ["b-region", "a-region", "a-region"],
    });
    expect(plan.candidates).toEqual([
      {
        name: "s",
        region: "eu-west",
        belongsToGame: true,
        clientFacing: false,
        movable: true,
        needsAcknowledgement: true,
      },
      {
        name: "disk",
        region: "eu-west",
        belongsToGame: true,
        clientFacing: false,
        movable: true,
        needsAcknowledgement: false,
      },
      {
        name: "run",
        region: "eu-west",
        belongsToGame: true,
        clientFacing: false,
        movable: true,
        needsAcknowledgement: false,
      },
      {
        name: "ip",
        region: "us-east",
        belongsToGame: false,
        clientFacing: true,
        movable: true,
        needsAcknowledgement: false,
      },
    ]);
    expect(plan.unlistedRegions).toEqual(["a-region", "b-region"]);
    expect(plan.recommendedMode).toBe("MOVE");
    expect(plan.warnings).toEqual([
      expect.stringContaining("a-region"),
      expect.stringContaining("b-region"),
      expect.stringMatching(/^s is a stopped server/),
      expect.stringMatching(/^ip does not belong/),
    ]);
  });
});
