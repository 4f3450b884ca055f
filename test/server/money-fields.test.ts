import {
  create,
  createFileRegistry,
  type DescField,
  type DescMessage,
  type DescMethodUnary,
  type DescService,
  fromBinary,
  getOption,
  type Message,
  type Registry,
  ScalarType,
  toJson,
} from "@bufbuild/protobuf";
import { type ReflectList, type ReflectMap, type ReflectMessage, reflect } from "@bufbuild/protobuf/reflect";
import { type FileDescriptorProto, FileDescriptorProtoSchema, FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BillingService } from "../../gen/encore/billing/v1/billing_service_pb.js";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { HostingService, Resource_Kind } from "../../gen/encore/hosting/v1/hosting_service_pb.js";
import { OperatorAuditService } from "../../gen/encore/operator/v1/operator_audit_service_pb.js";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { FieldBehavior, field_behavior } from "../../gen/google/api/field_behavior_pb.js";
import { ServerReflection } from "../../gen/grpc/reflection/v1/reflection_pb.js";
import { createRouteTable, type Route } from "../../src/transcode/route-table.js";
import { type Studio, seedStudio } from "../support/seed-hosting.js";
import { type ProtocolName, startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";

// Every google.type.Money field of every request of every service the server registers, found
// from the descriptors the server itself gives (gRPC reflection), so a money field added to a
// proto is covered here without a word of this file changing. An amount past the largest
// accepted (USD 1,000,000.00, spec 2.2, docs/api.md "Money") is INVALID_ARGUMENT naming the
// field and the bound over every protocol, from an authenticated caller before any handler
// reads it (an unauthenticated one is answered 401 first); the bound is not.

const BOUND = "USD 1000000.00";
// The services only the operator token reaches; every other is called with a studio owner's key.
const OPERATOR_SERVICES = new Set([OperatorService.typeName, OperatorAuditService.typeName]);
const amounts = {
  past: { currencyCode: "USD", units: 1_000_000n, nanos: 1 },
  pastBelow: { currencyCode: "USD", units: -1_000_000n, nanos: -1 },
  // Once past int64 nano-USD: what answered 500 from the store.
  overflowing: { currencyCode: "USD", units: 9_223_372_037n, nanos: 0 },
  largest: { currencyCode: "USD", units: 1_000_000n, nanos: 0 },
};

const MAX = 1_000_000n * 1_000_000_000n;
const RPC_PROTOCOLS: readonly ProtocolName[] = ["grpc", "grpc-web", "connect", "connect-json"];
const usd = (units: bigint) => ({ currencyCode: "USD", units, nanos: 0 });

interface MoneyField {
  method: DescMethodUnary;
  /** The fields from the request down to the Money field. */
  steps: DescField[];
  /** Its JSON path, as a refusal names it. */
  path: string;
  /** The service ignores what a caller sends in it (AIP-203). */
  outputOnly: boolean;
}

describe("amounts past the largest accepted, in every money field of every request", () => {
  let server: TestServer;
  let services: DescService[];
  let registry: Registry;
  let routes: readonly Route[];
  let fields: MoneyField[];
  let credential: (field: MoneyField) => string;
  beforeAll(async () => {
    server = await startTestServer();
    const studio = await seedStudio(server.db.database.prisma);
    credential = (field) =>
      OPERATOR_SERVICES.has(field.method.parent.typeName) ? TEST_OPERATOR_TOKEN : studio.tokens.OWNER;
    ({ services, registry } = await registeredServices(server));
    routes = createRouteTable(services).routes;
    fields = services.flatMap((service) =>
      service.methods.filter((m): m is DescMethodUnary => m.methodKind === "unary").flatMap(moneyFields),
    );
  });
  afterAll(() => server.close());

  it("finds the money fields the server reads, from its own descriptors", () => {
    const read = fields.filter((f) => !f.outputOnly).map((f) => `${f.method.name} ${f.path}`);
    expect(read).toEqual(
      expect.arrayContaining([
        "CreateOffer offer.price",
        "UpdateOffer offer.credit",
        "CreateCheckoutSession checkoutSession.amount",
        "CreateResource resource.hourlyPrice",
        "SetOutstandingLimit outstandingLimit",
        "RecordSettlement amount",
        "UpdateSettings settings.defaultOutstandingLimit",
      ]),
    );
  });

  it("refuses one past the bound, either side, and past int64, naming the field and the bound", async () => {
    for (const field of fields.filter((f) => !f.outputOnly)) {
      const expected = `"${field.path}" is out of range: the largest amount accepted is ${BOUND}.`;
      for (const amount of [amounts.past, amounts.pastBelow, amounts.overflowing]) {
        for (const protocol of RPC_PROTOCOLS) {
          const where = `${field.method.name} ${field.path} ${amount.units} over ${protocol}`;
          const refused = await overRpc(server, protocol, field, amount, credential(field));
          expect({ where, code: refused?.code, message: refused?.rawMessage }).toEqual({
            where,
            code: Code.InvalidArgument,
            message: expected,
          });
        }
        const where = `${field.method.name} ${field.path} ${amount.units} over REST`;
        for (const route of routesOf(field)) {
          const rest = await overRest(server, route, field, amount, registry, credential(field));
          expect({ where, status: rest.status, body: rest.body }).toEqual({
            where,
            status: 400,
            body: { code: Code.InvalidArgument, message: expected, details: [] },
          });
        }
      }
    }
  });

  it("does not refuse the largest amount accepted, nor any amount in an output-only field, as out of range", async () => {
    const outOfRange = (message: string | undefined) => message?.includes("out of range") === true;
    for (const field of fields) {
      const sent = field.outputOnly ? [amounts.largest, amounts.past, amounts.overflowing] : [amounts.largest];
      for (const amount of sent) {
        const where = `${field.method.name} ${field.path} ${amount.units}`;
        const grpc = await overRpc(server, "grpc", field, amount, credential(field));
        expect({ where, refused: outOfRange(grpc?.rawMessage) }).toEqual({ where, refused: false });
        for (const route of routesOf(field)) {
          const rest = await overRest(server, route, field, amount, registry, credential(field));
          expect({ where, refused: outOfRange(rest.body?.message) }).toEqual({ where, refused: false });
        }
      }
    }
  });

  const routesOf = (field: MoneyField) => routes.filter((route) => route.method === field.method);
});

describe("the largest amount accepted, in every money field a request reads", () => {
  let server: TestServer;
  let studio: Studio;
  beforeAll(async () => {
    server = await startTestServer();
    // Outstanding at the bound, so a settlement of the bound is one the link owes.
    studio = await seedStudio(server.db.database.prisma, { outstandingNanos: MAX });
  });
  afterAll(() => server.close());

  const largest = amounts.largest;
  const account = () => `accounts/${studio.accountId}`;
  const link = () => `${account()}/distributorLinks/${studio.linkId}`;

  it("is taken, stored and read back by each method that takes money", async () => {
    const owner = server.client(CampaignService, "connect", studio.tokens.OWNER);
    const operator = server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN);
    const offer = await owner.createOffer({
      parent: studio.name,
      offer: { displayName: "All of it", price: largest, credit: usd(700_000n) },
    });
    expect(offer).toMatchObject({ price: largest, credit: usd(700_000n) });
    const updated = await owner.updateOffer({
      offer: { name: offer.name, price: largest, credit: usd(600_000n) },
      updateMask: { paths: ["price", "credit"] },
    });
    expect(updated).toMatchObject({ price: largest, credit: usd(600_000n) });

    expect(await operator.setOutstandingLimit({ name: link(), outstandingLimit: largest })).toMatchObject({
      outstandingLimit: largest,
    });
    const settled = await operator.recordSettlement({ parent: link(), amount: largest, reference: "all" });
    expect(settled.amount).toMatchObject(largest);
    const settings = await operator.updateSettings({ settings: { defaultOutstandingLimit: largest } });
    expect(settings.defaultOutstandingLimit).toMatchObject(largest);

    const hosting = server.client(HostingService, "connect", studio.tokens.OWNER);
    const resource = await hosting.createResource({
      parent: `${account()}/projects/${studio.projectId}`,
      resource: { displayName: "Big", kind: Resource_Kind.SERVER, region: "eu-west", hourlyPrice: largest },
    });
    expect(resource.hourlyPrice).toMatchObject(largest);
    const billing = server.client(BillingService, "connect", studio.tokens.OWNER);
    const checkout = await billing.createCheckoutSession({ parent: account(), checkoutSession: { amount: largest } });
    expect(checkout.amount).toMatchObject(largest);
  });
});

/** The services the server lists over reflection, with the descriptors it gives for them. */
async function registeredServices(server: TestServer): Promise<{ services: DescService[]; registry: Registry }> {
  const client = createClient(ServerReflection, server.transport("grpc"));
  const ask = async (requests: object[]) => {
    const answers = [];
    for await (const answer of client.serverReflectionInfo(each(requests))) answers.push(answer);
    return answers;
  };
  const [listed] = await ask([{ messageRequest: { case: "listServices", value: "" } }]);
  const names =
    listed?.messageResponse.case === "listServicesResponse"
      ? listed.messageResponse.value.service.map((s) => s.name)
      : [];
  // Each service's file, then every file they import that was not sent yet, as clients ask.
  const files = new Map<string, FileDescriptorProto>();
  let questions: object[] = names.map((name) => ({ messageRequest: { case: "fileContainingSymbol", value: name } }));
  while (questions.length > 0) {
    for (const answer of await ask(questions)) {
      if (answer.messageResponse.case !== "fileDescriptorResponse") continue;
      for (const bytes of answer.messageResponse.value.fileDescriptorProto) {
        const file = fromBinary(FileDescriptorProtoSchema, bytes);
        files.set(file.name, file);
      }
    }
    const missing = new Set([...files.values()].flatMap((f) => f.dependency).filter((name) => !files.has(name)));
    questions = [...missing].map((name) => ({ messageRequest: { case: "fileByFilename", value: name } }));
  }
  const registry = createFileRegistry(create(FileDescriptorSetSchema, { file: importsFirst(files) }));
  const services = names.map((name) => {
    const service = registry.getService(name);
    if (service === undefined) throw new Error(`reflection gave no descriptor for ${name}`);
    return service;
  });
  return { services, registry };
}

/** The files with each one's imports before it, as a FileDescriptorSet must list them. */
function importsFirst(files: ReadonlyMap<string, FileDescriptorProto>): FileDescriptorProto[] {
  const ordered: FileDescriptorProto[] = [];
  const placed = new Set<string>();
  const place = (file: FileDescriptorProto) => {
    if (placed.has(file.name)) return;
    placed.add(file.name);
    for (const name of file.dependency) {
      const imported = files.get(name);
      if (imported !== undefined) place(imported);
    }
    ordered.push(file);
  };
  for (const file of files.values()) place(file);
  return ordered;
}

async function* each<T>(items: T[]): AsyncIterable<T> {
  yield* items;
}

/** Every Money field under a request, by the path of fields to it (a type within itself once). */
function moneyFields(method: DescMethodUnary): MoneyField[] {
  const found: MoneyField[] = [];
  const walk = (desc: DescMessage, steps: DescField[], outputOnly: boolean, seen: Set<DescMessage>) => {
    for (const field of desc.fields) {
      const message = messageOf(field);
      if (message === undefined || seen.has(message)) continue;
      const path = [...steps, field];
      const hidden = outputOnly || getOption(field, field_behavior).includes(FieldBehavior.OUTPUT_ONLY);
      if (message.typeName === "google.type.Money") {
        found.push({ method, steps: path, path: path.map((f) => f.jsonName).join("."), outputOnly: hidden });
      } else {
        walk(message, path, hidden, new Set([...seen, message]));
      }
    }
  };
  walk(method.input, [], false, new Set([method.input]));
  return found;
}

function messageOf(field: DescField): DescMessage | undefined {
  if (field.fieldKind === "message") return field.message;
  if (
    (field.fieldKind === "list" && field.listKind === "message") ||
    (field.fieldKind === "map" && field.mapKind === "message")
  )
    return field.message;
  return undefined;
}

type Amount = (typeof amounts)[keyof typeof amounts];

/** The request with `amount` in the field (one item of a list, one entry of a map) and nothing else set. */
function requestWith(field: MoneyField, amount: Amount): Message {
  const fill = (desc: DescMessage, depth: number): ReflectMessage => {
    const target = reflect(desc);
    const step = field.steps[depth] as DescField;
    const inner = messageOf(step) as DescMessage;
    const value = depth === field.steps.length - 1 ? reflect(inner, create(inner, amount)) : fill(inner, depth + 1);
    if (step.fieldKind === "list") (target.get(step) as ReflectList).add(value);
    else if (step.fieldKind === "map") (target.get(step) as ReflectMap).set(mapKey(step), value);
    else target.set(step, value);
    return target;
  };
  return fill(field.method.input, 0).message;
}

function mapKey(field: DescField & { fieldKind: "map" }): unknown {
  if (field.mapKey === ScalarType.STRING) return "k";
  if (field.mapKey === ScalarType.BOOL) return true;
  return [ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64].includes(
    field.mapKey,
  )
    ? 1n
    : 1;
}

async function overRpc(
  server: TestServer,
  protocol: ProtocolName,
  field: MoneyField,
  amount: Amount,
  token: string,
): Promise<ConnectError | undefined> {
  const header = { authorization: `Bearer ${token}` };
  try {
    await server.transport(protocol).unary(field.method, undefined, undefined, header, requestWith(field, amount));
    return undefined;
  } catch (error) {
    return ConnectError.from(error);
  }
}

/** The request over one of its HTTP bindings: a path matching its template, the body as the rule says. */
function overRest(
  server: TestServer,
  route: Route,
  field: MoneyField,
  amount: Amount,
  registry: Registry,
  token: string,
) {
  const { template, body } = route;
  const headers = { authorization: `Bearer ${token}` };
  const segments = template.segments.map((s) => (s.kind === "literal" ? s.value : "x"));
  const path = `/${segments.join("/")}${template.verb === undefined ? "" : `:${template.verb}`}`;
  const request = requestWith(field, amount);
  if (body.kind === "all")
    return server.rest(route.httpMethod, path, toJson(field.method.input, request, { registry }), headers);
  if (body.kind === "field" && field.steps[0] === body.field && body.field.fieldKind === "message") {
    const value = (reflect(field.method.input, request).get(body.field) as ReflectMessage).message;
    return server.rest(route.httpMethod, path, toJson(body.field.message, value, { registry }), headers);
  }
  throw new Error(
    `${route.method.name} ${field.path}: the field is not in the body of ${route.httpMethod} ${template.source}`,
  );
}
