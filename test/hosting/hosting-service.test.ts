import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostingService, Resource_Kind, Resource_State } from "../../gen/encore/hosting/v1/hosting_service_pb.js";
import { setRegionListingFails } from "../../src/store/resources.js";
import { type Studio, seedStudio } from "../support/seed-hosting.js";
import { type QuietServer, startQuietServer } from "../transfer/support/quiet-server.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const usd = (units: bigint, nanos = 0) => ({ currencyCode: "USD", units, nanos });

describe("encore.hosting.v1.HostingService", () => {
  let server: QuietServer;
  let studio: Studio;
  beforeAll(async () => {
    server = await startQuietServer(NOW);
    studio = await seedStudio(server.db);
  });
  afterAll(() => server.close());

  const hosting = (token: string) => server.client(HostingService, token);
  const parent = () => `accounts/${studio.accountId}`;

  it("records games and lists them", async () => {
    const owner = hosting(studio.tokens.OWNER);
    const game = await owner.createGame({ parent: parent(), game: { displayName: "Second game" } });
    expect(game.name).toMatch(new RegExp(`^${parent()}/games/[0-9a-f]+$`));
    expect(await owner.getGame({ name: game.name })).toEqual(game);
    const all = await hosting(studio.tokens.VIEWER).listGames({ parent: parent(), pageSize: 1 });
    expect(all.games).toHaveLength(1);
    const next = await owner.listGames({ parent: parent(), pageSize: 1, pageToken: all.nextPageToken });
    expect(next.games).toHaveLength(1);
    expect(next.nextPageToken).toBe("");
    expect([all.games[0]?.name, next.games[0]?.name]).toContain(game.name);
  });

  it("creates ordinary projects and resources with their defaults", async () => {
    const owner = hosting(studio.tokens.OWNER);
    const project = await owner.createProject({ parent: parent(), project: { displayName: "Live" } });
    expect(project).toMatchObject({ topUpOnly: false, campaign: "", balance: usd(0n) });
    const resource = await owner.createResource({
      parent: project.name,
      resource: {
        displayName: "eu-1",
        kind: Resource_Kind.SERVER,
        region: "eu-west",
        game: `${parent()}/games/${studio.gameId}`,
        clientFacing: true,
        hourlyPrice: usd(0n, 250_000_000),
      },
    });
    expect(resource).toMatchObject({
      displayName: "eu-1",
      movable: true,
      diskCopyable: true,
      state: Resource_State.RUNNING,
      hourlyPrice: usd(0n, 250_000_000),
    });
    expect(resource.name.startsWith(`${project.name}/resources/`)).toBe(true);
    expect(await owner.getResource({ name: resource.name })).toEqual(resource);
    await owner.deleteResource({ name: resource.name });
    await expect(owner.getResource({ name: resource.name })).rejects.toMatchObject({ code: Code.NotFound });
  });

  it("lists a campaign's project as top-up-only, with its campaign", async () => {
    const project = await hosting(studio.tokens.VIEWER).getProject({
      name: `${parent()}/projects/${studio.projectId}`,
    });
    expect(project).toMatchObject({ topUpOnly: true, campaign: studio.name });
  });

  it("names regions that could not be listed in `unreachable` and leaves their resources out", async () => {
    const owner = hosting(studio.tokens.OWNER);
    const project = await owner.createProject({ parent: parent(), project: { displayName: "Regions" } });
    const make = (region: string) =>
      owner.createResource({
        parent: project.name,
        resource: { displayName: region, kind: Resource_Kind.DISK, region, hourlyPrice: usd(1n) },
      });
    const west = await make("eu-west");
    await make("zz-down");
    await setRegionListingFails(server.db, "zz-down", true);
    try {
      const listed = await owner.listResources({ parent: project.name });
      expect(listed.resources.map((r) => r.name)).toEqual([west.name]);
      expect(listed.unreachable).toEqual(["zz-down"]);
      const rest = await server.rest("GET", `/v1/${project.name}/resources`, studio.tokens.VIEWER);
      expect(rest.status).toBe(200);
      expect(rest.body).toMatchObject({
        unreachable: ["zz-down"],
        resources: [{ name: west.name, kind: "KIND_DISK" }],
      });
    } finally {
      await setRegionListingFails(server.db, "zz-down", false);
    }
  });

  it.each([
    ["a viewer creating a resource", "VIEWER"],
    ["billing creating a resource", "BILLING"],
  ] as const)("answers %s NOT_FOUND", async (_, role) => {
    const project = `${parent()}/projects/${studio.projectId}`;
    const attempt = hosting(studio.tokens[role]).createResource({
      parent: project,
      resource: { displayName: "x", kind: Resource_Kind.SERVER, region: "eu-west", hourlyPrice: usd(1n) },
    });
    await expect(attempt).rejects.toMatchObject({ code: Code.NotFound, rawMessage: `${project} was not found.` });
  });

  it("answers another account's project NOT_FOUND, worded as a missing one", async () => {
    const other = await seedStudio(server.db);
    const name = `accounts/${other.accountId}/projects/${other.projectId}`;
    const error = await hosting(studio.tokens.OWNER)
      .getProject({ name })
      .catch((e: unknown) => e);
    expect(ConnectError.from(error)).toMatchObject({ code: Code.NotFound, rawMessage: `${name} was not found.` });
  });

  it.each([
    ["no kind", { displayName: "x", region: "eu-west", hourlyPrice: usd(1n) }],
    ["a bad region", { displayName: "x", kind: Resource_Kind.SERVER, region: "EU WEST", hourlyPrice: usd(1n) }],
    ["a negative price", { displayName: "x", kind: Resource_Kind.SERVER, region: "eu-west", hourlyPrice: usd(-1n) }],
    [
      "a price not in USD",
      {
        displayName: "x",
        kind: Resource_Kind.SERVER,
        region: "eu-west",
        hourlyPrice: { currencyCode: "EUR", units: 1n, nanos: 0 },
      },
    ],
    [
      "another account's game",
      {
        displayName: "x",
        kind: Resource_Kind.SERVER,
        region: "eu-west",
        hourlyPrice: usd(1n),
        game: "accounts/someone/games/g1",
      },
    ],
  ])("refuses a resource with %s: INVALID_ARGUMENT", async (_, resource) => {
    const attempt = hosting(studio.tokens.OWNER).createResource({
      parent: `${parent()}/projects/${studio.projectId}`,
      resource,
    });
    await expect(attempt).rejects.toMatchObject({ code: Code.InvalidArgument });
  });
});
