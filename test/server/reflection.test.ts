import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { create, createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { type FileDescriptorProto, FileDescriptorProtoSchema, FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCT_SERVICES } from "../support/product-services.js";
import { DOLLAR, seedCampaign } from "../support/seed.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const run = promisify(execFile);
const buf = (args: string[]) => run(root("node_modules/.bin/buf"), ["curl", ...args], { cwd: "/" });

const productServices = PRODUCT_SERVICES;
const toolServices = [
  "grpc.health.v1.Health",
  "grpc.reflection.v1.ServerReflection",
  "grpc.reflection.v1alpha.ServerReflection",
];

describe("gRPC server reflection", () => {
  let server: TestServer;
  let campaignKey: string;
  beforeAll(async () => {
    server = await startTestServer();
    ({ campaignKey } = await seedCampaign(server.db.database.prisma, {
      visibility: "EXACT_BALANCE",
      balanceNanos: 12n * DOLLAR,
    }));
  });
  afterAll(() => server.close());

  // Run outside the checkout (cwd "/"), so no proto file can be found but through reflection.
  describe.each([
    ["grpc", ["--protocol", "grpc"]],
    ["grpcweb", ["--protocol", "grpcweb"]],
    ["connect", ["--protocol", "connect"]],
  ])("buf curl over %s", (_, protocol) => {
    it("lists every method of every service", async () => {
      const { stdout } = await buf([...protocol, "--list-methods", server.baseUrl]);
      const listed = stdout.trim().split("\n").sort();
      const expected = productServices.flatMap((s) => s.methods.map((m) => `${s.typeName}/${m.name}`));
      expect(listed).toEqual(expect.arrayContaining(expected));
      expect(listed).toEqual(expect.arrayContaining(toolServices.map((s) => expect.stringContaining(`${s}/`))));
    });

    it("calls a method with no --schema, over reflection v1 and v1alpha", async () => {
      for (const reflect of ["grpc-v1", "grpc-v1alpha"]) {
        const { stdout } = await buf([
          ...protocol,
          "--reflect-protocol",
          reflect,
          "-d",
          JSON.stringify({ campaignKey }),
          `${server.baseUrl}/encore.campaign.v1.CampaignService/GetPublicFunding`,
        ]);
        expect(JSON.parse(stdout)).toMatchObject({ funded: true, balance: { currencyCode: "USD", units: "12" } });
      }
    });
  });

  describe.each(["v1", "v1alpha"])("a @grpc/grpc-js reflection client (%s)", (version) => {
    type Response = {
      list_services_response?: { service: { name: string }[] };
      file_descriptor_response?: { file_descriptor_proto: Buffer[] };
      all_extension_numbers_response?: { base_type_name: string; extension_number: number[] };
      error_response?: { error_code: number; error_message: string };
    };
    // One stream, one question after the other, as reflection clients ask.
    const ask = async (questions: object[]): Promise<Response[]> => {
      const definition = await protoLoader.load(`grpc/reflection/${version}/reflection.proto`, {
        includeDirs: [root("third_party/grpc-proto")],
        keepCase: true,
      });
      const pkg = grpc.loadPackageDefinition(definition) as unknown as {
        grpc: { reflection: Record<string, { ServerReflection: grpc.ServiceClientConstructor }> };
      };
      const Client = pkg.grpc.reflection[version]?.ServerReflection as grpc.ServiceClientConstructor;
      const client = new Client(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
      try {
        const stream = (client.ServerReflectionInfo as () => grpc.ClientDuplexStream<object, Response>).call(client);
        const answers: Response[] = [];
        for (const question of questions) {
          const answer = new Promise<Response>((resolve, reject) => {
            stream.once("data", resolve);
            stream.once("error", reject);
          });
          stream.write(question);
          answers.push(await answer);
        }
        stream.end();
        return answers;
      } finally {
        client.close();
      }
    };

    it("lists the services and sends each one's file with every import resolved", async () => {
      const [list, ...files] = await ask([
        { list_services: "" },
        ...productServices.map((s) => ({ file_containing_symbol: s.typeName })),
      ]);
      const names = list?.list_services_response?.service.map((s) => s.name);
      expect(names?.sort()).toEqual([...productServices.map((s) => s.typeName), ...toolServices].sort());

      // Every file the stream sent, decoded: a registry builds only when no import is missing.
      const protos = files.flatMap((f) =>
        (f.file_descriptor_response?.file_descriptor_proto ?? []).map((b) => fromBinary(FileDescriptorProtoSchema, b)),
      );
      const registry = createFileRegistry(create(FileDescriptorSetSchema, { file: importsFirst(protos) }));
      for (const service of productServices) {
        expect(registry.getService(service.typeName)?.methods.map((m) => m.name)).toEqual(
          service.methods.map((m) => m.name),
        );
      }
      const names2 = protos.map((p) => p.name);
      for (const dir of ["google/api/", "google/rpc/", "google/type/", "google/longrunning/", "google/protobuf/"]) {
        expect(names2.some((n) => n.startsWith(dir))).toBe(true);
      }
      // An import is sent once per stream; only the file asked for comes again (as grpc-go does).
      const seen = new Set<string>();
      for (const answer of files) {
        const [, ...imports] = (answer.file_descriptor_response?.file_descriptor_proto ?? []).map(
          (b) => fromBinary(FileDescriptorProtoSchema, b).name,
        );
        for (const name of imports) expect(seen.has(name)).toBe(false);
        for (const name of imports) seen.add(name);
      }
    });

    it("answers files by name, extensions, and NOT_FOUND for what it does not have", async () => {
      const [byName, field, enumValue, extensionNumbers, extension, missing, missingFile] = await ask([
        { file_by_filename: "encore/campaign/v1/public.proto" },
        { file_containing_symbol: "encore.campaign.v1.Campaign.display_name" },
        // Enum values live in the scope around their enum (protobuf scoping).
        { file_containing_symbol: "google.api.OUTPUT_ONLY" },
        { all_extension_numbers_of_type: "google.protobuf.MethodOptions" },
        { file_containing_extension: { containing_type: "google.protobuf.MethodOptions", extension_number: 72295728 } },
        { file_containing_symbol: "encore.campaign.v1.Nope" },
        { file_by_filename: "nope.proto" },
      ]);
      const first = byName?.file_descriptor_response?.file_descriptor_proto[0] as Buffer;
      expect(fromBinary(FileDescriptorProtoSchema, first).name).toBe("encore/campaign/v1/public.proto");
      const campaignFile = field?.file_descriptor_response?.file_descriptor_proto[0] as Buffer;
      expect(fromBinary(FileDescriptorProtoSchema, campaignFile).name).toBe("encore/campaign/v1/campaign.proto");
      const behaviorFile = enumValue?.file_descriptor_response?.file_descriptor_proto[0] as Buffer;
      expect(fromBinary(FileDescriptorProtoSchema, behaviorFile).name).toBe("google/api/field_behavior.proto");
      expect(extensionNumbers?.all_extension_numbers_response?.extension_number).toContain(72295728);
      const annotations = extension?.file_descriptor_response?.file_descriptor_proto[0] as Buffer;
      expect(fromBinary(FileDescriptorProtoSchema, annotations).name).toBe("google/api/annotations.proto");
      expect(missing?.error_response?.error_code).toBe(grpc.status.NOT_FOUND);
      expect(missingFile?.error_response?.error_code).toBe(grpc.status.NOT_FOUND);
    });
  });
});

// A descriptor set lists every import before the files that import it; a missing one throws.
function importsFirst(files: FileDescriptorProto[]): FileDescriptorProto[] {
  const byName = new Map(files.map((f) => [f.name, f]));
  const out = new Map<string, FileDescriptorProto>();
  const visit = (file: FileDescriptorProto): void => {
    if (out.has(file.name)) return;
    for (const name of file.dependency) {
      const dependency = byName.get(name);
      if (dependency === undefined) throw new Error(`${file.name} imports ${name}, which reflection never sent`);
      visit(dependency);
    }
    out.set(file.name, file);
  };
  for (const file of files) visit(file);
  return [...out.values()];
}
