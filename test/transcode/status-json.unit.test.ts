import { create, createRegistry, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it, vi } from "vitest";
import {
  ErrorInfoSchema,
  file_google_rpc_error_details,
  PreconditionFailureSchema,
} from "../../gen/google/rpc/error_details_pb.js";
import { errorToStatus } from "../../src/transcode/status-json.js";

const registry = createRegistry(file_google_rpc_error_details);
const render = (error: unknown, onInternalError = vi.fn()) => errorToStatus(error, { registry, onInternalError });

describe("errorToStatus", () => {
  it("renders ErrorInfo and PreconditionFailure as Any with @type", () => {
    const error = new ConnectError("The campaign is not verified.", Code.FailedPrecondition, undefined, [
      {
        desc: ErrorInfoSchema,
        value: { reason: "CAMPAIGN_NOT_VERIFIED", domain: "campaign.encore.v1", metadata: { campaignKey: "k1" } },
      },
      {
        desc: PreconditionFailureSchema,
        value: { violations: [{ type: "CAMPAIGN_NOT_VERIFIED", subject: "k1", description: "Not verified." }] },
      },
    ]);
    const status = render(error);
    expect(status.httpStatus).toBe(400);
    expect(status.body).toEqual({
      code: 9,
      message: "The campaign is not verified.",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "CAMPAIGN_NOT_VERIFIED",
          domain: "campaign.encore.v1",
          metadata: { campaignKey: "k1" },
        },
        {
          "@type": "type.googleapis.com/google.rpc.PreconditionFailure",
          violations: [{ type: "CAMPAIGN_NOT_VERIFIED", subject: "k1", description: "Not verified." }],
        },
      ],
    });
    expect(Object.keys((status.body.details as object[])[0] as object)[0]).toBe("@type");
  });

  it("decodes details that arrived from the wire as bytes, dropping unknown types", () => {
    const error = new ConnectError("x", Code.NotFound);
    error.details.push(
      {
        type: "google.rpc.ErrorInfo",
        value: toBinary(ErrorInfoSchema, create(ErrorInfoSchema, { reason: "R", domain: "d" })),
      },
      { type: "no.such.Type", value: new Uint8Array([8, 1]) },
    );
    expect(render(error).body).toEqual({
      code: 5,
      message: "x",
      details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "R", domain: "d", metadata: {} }],
    });
  });

  it("always writes message and details", () => {
    expect(render(new ConnectError("", Code.Unavailable)).body).toEqual({ code: 14, message: "", details: [] });
  });

  it("turns anything else into INTERNAL without echoing the cause, and reports the cause", () => {
    const onInternalError = vi.fn();
    const cause = new Error("password=hunter2");
    const status = render(cause, onInternalError);
    expect(status).toEqual({ httpStatus: 500, body: { code: 13, message: "internal error", details: [] } });
    expect(onInternalError).toHaveBeenCalledWith(cause);
  });

  // api-conventions 2: one table for all 16 error codes (0 OK is success, 200, never an error).
  it.each([
    [Code.Canceled, 1, 499],
    [Code.Unknown, 2, 500],
    [Code.InvalidArgument, 3, 400],
    [Code.DeadlineExceeded, 4, 504],
    [Code.NotFound, 5, 404],
    [Code.AlreadyExists, 6, 409],
    [Code.PermissionDenied, 7, 403],
    [Code.ResourceExhausted, 8, 429],
    [Code.FailedPrecondition, 9, 400],
    [Code.Aborted, 10, 409],
    [Code.OutOfRange, 11, 400],
    [Code.Unimplemented, 12, 501],
    [Code.Internal, 13, 500],
    [Code.Unavailable, 14, 503],
    [Code.DataLoss, 15, 500],
    [Code.Unauthenticated, 16, 401],
  ])("code %s -> body code %s, HTTP %s", (code, number, http) => {
    const status = render(new ConnectError("m", code));
    expect(status.httpStatus).toBe(http);
    expect(status.body.code).toBe(number);
  });
});
