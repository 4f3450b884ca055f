/** Layering of DESIGN.md section 2: dependencies point inward. Run in .ci/run. */
module.exports = {
  forbidden: [
    {
      name: "domain-is-pure",
      comment: "domain/ holds the rules: no generated code, no storage, no transport, no platform, no I/O",
      severity: "error",
      from: { path: "^src/domain/" },
      to: { path: "^(gen/|src/(?!domain/|errors/))|^(node:)?(fs|net|http|http2|child_process)$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "domain-imports-no-prisma-or-proto-types",
      severity: "error",
      from: { path: "^src/domain/" },
      to: { path: "^gen/" },
    },
    {
      name: "transcode-knows-no-product",
      comment: "transcode/ is generic google.api.http -> RPC; it could be a library of its own",
      severity: "error",
      from: { path: "^src/transcode/" },
      to: { path: "^src/(?!transcode/)|^gen/encore/" },
    },
    {
      name: "openapi-reads-only-the-transcoder",
      comment: "openapi/ describes what transcode/ serves, from descriptors; it knows no product code",
      severity: "error",
      from: { path: "^src/openapi/" },
      to: { path: "^src/(?!openapi/|transcode/)|^gen/encore/" },
    },
    {
      name: "jobs-import-no-handlers",
      comment: "a job runs use cases (src/usecases/), never a service's handlers; what both share is in src/core/",
      severity: "error",
      from: { path: "^src/jobs/" },
      to: { path: "^src/services/" },
    },
    {
      name: "usecases-import-no-handlers",
      comment: "a use case serves handlers and jobs alike, so it knows neither",
      severity: "error",
      from: { path: "^src/usecases/" },
      to: { path: "^src/(services|jobs)/" },
    },
    {
      name: "services-know-no-transport",
      severity: "error",
      from: { path: "^src/(services|usecases)/" },
      to: { path: "^src/(server|transcode|fund|cli|sim)/" },
    },
    {
      name: "fund-page-uses-usecases-not-handlers",
      comment:
        "fund/ is the public funding page, a transport beside the RPC handlers: it runs the use cases they run (begin, settle) and reads the store, never a handler, the server or a job",
      severity: "error",
      from: { path: "^src/fund/" },
      to: { path: "^src/(services|server|transcode|jobs|cli|sim)/" },
    },
    {
      name: "core-is-below-services",
      comment: "src/core/ is the kernel shared by services, use cases, jobs, server and cli",
      severity: "error",
      from: { path: "^src/core/" },
      to: { path: "^src/(services|jobs|server|transcode|fund|cli|sim)/" },
    },
    {
      name: "store-knows-no-callers",
      severity: "error",
      from: { path: "^src/store/" },
      to: { path: "^src/(server|transcode|core|services|usecases|jobs|cli|sim|platform)/" },
    },
    {
      name: "steam-wire-format-stays-in-platform",
      comment: "only src/platform/steam knows Steam's wire format (the simulator serves it)",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(platform/steam|sim/steam)/" },
      to: { path: "^src/sim/" },
    },
    {
      name: "no-circular",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    exclude: { path: "^gen/prisma/" },
  },
};
