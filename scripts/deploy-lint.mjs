// Lints the image recipe and the deployment files without a Docker engine or a cluster:
// the Dockerfile through dockerfile-utils (the VS Code Docker extension's validator) and our
// own rules; compose.yaml and deploy/k8s/*.yaml as YAML, the Kubernetes objects against the
// API's JSON schemas (kubernetes-models), compose's proxy against deploy/haproxy/haproxy.cfg, and
// the settings that must agree across files.
// Run by .ci/run; `node scripts/deploy-lint.mjs` prints every problem, exit 1 if any.

import { readdirSync, readFileSync } from "node:fs";
import { DockerfileParser } from "dockerfile-ast";
import { validate as validateDockerfile } from "dockerfile-utils";
import ipaddr from "ipaddr.js";
import { Deployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Secret, Service } from "kubernetes-models/v1";
import { parseAllDocuments } from "yaml";

const root = new URL("../", import.meta.url);
const read = (path) => readFileSync(new URL(path, root), "utf8");
const problems = [];
const check = (ok, problem) => {
  if (!ok) problems.push(problem);
};

// The service's own drain deadline, SHUTDOWN_TIMEOUT_MS (src/config.ts): every grace period
// must be longer than the value the file sets, or than the default where it sets none.
const defaultDrainMs = Number(
  /SHUTDOWN_TIMEOUT_MS: [^\n]*\.default\(([\d_]+)\)/.exec(read("src/config.ts"))?.[1].replaceAll("_", ""),
);
check(defaultDrainMs > 0, "src/config.ts: SHUTDOWN_TIMEOUT_MS's default not found");
const drainSecondsOf = (value) => Number(value ?? defaultDrainMs) / 1000;

// --- Dockerfile
const dockerfileText = read("Dockerfile");
for (const d of validateDockerfile(dockerfileText)) {
  check(false, `Dockerfile:${d.range.start.line + 1}: ${d.message}`);
}
const dockerfile = DockerfileParser.parse(dockerfileText);
const lineOf = (instruction) => dockerfileText.split("\n")[instruction.getRange().start.line] ?? "";
const stages = dockerfile.getFROMs();
check(stages.length >= 2, "Dockerfile: not multi-stage");
const runtime = dockerfile
  .getInstructions()
  .filter((i) => i.getRange().start.line > (stages.at(-1)?.getRange().start.line ?? 0));
const last = (keyword) => runtime.filter((i) => i.getKeyword() === keyword).at(-1);
const user = last("USER")?.getArgumentsContent();
check(user !== undefined && !/^(root|0)(:|$)/.test(user), "Dockerfile: the runtime stage must set a non-root USER");
const cmd = last("CMD")?.getArgumentsContent() ?? "";
check(/^\["node",/.test(cmd), 'Dockerfile: CMD must be exec form starting with "node" (node as PID 1)');
// The image and `npm start` run node with the same options (V8's young generation among them:
// docs/performance.md, "Memory"), so what the bench measures on
// one is what the other runs.
const cmdOptions = (() => {
  try {
    return JSON.parse(cmd).slice(1, -1);
  } catch {
    return undefined;
  }
})();
const startOptions = /^exec node (.*?) ?--import \S+ dist\/src\/main\.js$/
  .exec(JSON.parse(read("package.json")).scripts.start)?.[1]
  .split(" ")
  .filter(Boolean);
check(
  cmdOptions !== undefined && JSON.stringify(cmdOptions) === JSON.stringify(startOptions),
  `Dockerfile: CMD's node options (${cmdOptions?.join(" ")}) must be npm start's (${startOptions?.join(" ")})`,
);
check(
  cmdOptions?.some((o) => /^--max-semi-space-size=\d+$/.test(o)) === true,
  "Dockerfile: CMD must set V8's young generation (--max-semi-space-size): under a memory limit V8 shrinks it",
);
check(
  cmdOptions?.some((o) => /^--max-old-space-size=\d+$/.test(o)) === true,
  "Dockerfile: CMD must state V8's old generation (--max-old-space-size): docs/performance.md, Memory",
);
check(
  cmdOptions?.some((o) => /^--wasm-tiering-budget=\d+$/.test(o)) === true,
  "Dockerfile: CMD must raise V8's WebAssembly tier-up budget (--wasm-tiering-budget): docs/performance.md",
);
check(last("HEALTHCHECK") !== undefined, "Dockerfile: no HEALTHCHECK in the runtime stage");
check(
  /\/(healthz|readyz)/.test(last("HEALTHCHECK")?.getArgumentsContent() ?? ""),
  "Dockerfile: HEALTHCHECK must call /healthz or /readyz",
);
check(
  /npm ci --omit=dev --omit=optional/.test(dockerfileText),
  "Dockerfile: production dependencies must come from npm ci --omit=dev --omit=optional (which also drops the prisma CLI)",
);
check(
  runtime.some((i) => i.getKeyword() === "COPY" && /--from=deps .*node_modules/.test(lineOf(i))),
  "Dockerfile: the runtime stage must take node_modules from the production-only stage",
);

// --- YAML files
function documents(path) {
  const docs = parseAllDocuments(read(path), { uniqueKeys: true, strict: true });
  for (const doc of docs) for (const error of doc.errors) check(false, `${path}: ${error.message}`);
  return docs.map((doc) => doc.toJS());
}

const compose = documents("compose.yaml")[0] ?? {};
for (const name of ["proxy", "encore", "postgres", "redis", "steam-sim"]) {
  check(compose.services?.[name] !== undefined, `compose.yaml: no ${name} service`);
}
check(compose.services?.["steam-sim"]?.profiles?.includes("sim"), "compose.yaml: steam-sim must be in the sim profile");
// Replicas behind HAProxy on one host (docs/deploy.md "Replicas"): the proxy's config passes
// each connection on with a PROXY protocol header, and the replicas read it from the proxy alone.
const encore = compose.services?.encore ?? {};
const proxy = compose.services?.proxy ?? {};
check(/^haproxy:\d/.test(proxy.image ?? ""), "compose.yaml: the proxy service must run the official haproxy image");
check(Number(encore.deploy?.replicas) >= 2, "compose.yaml: encore must run replicas (deploy.replicas >= 2)");
const containerPort = (mapping) => String(mapping).split(":").at(-1);
const servicePort = String(encore.environment?.PORT ?? 8080);
check(
  !(encore.ports ?? []).some((mapping) => containerPort(mapping) === servicePort),
  `compose.yaml: encore's port ${servicePort} is reached through the proxy, never published by the replicas`,
);
const proxyAddress = proxy.networks?.default?.ipv4_address;
const trusted = String(encore.environment?.PROXY_PROTOCOL_FROM ?? "").split(",");
check(
  proxyAddress !== undefined && trusted.includes(proxyAddress),
  `compose.yaml: encore's PROXY_PROTOCOL_FROM (${trusted}) must name the proxy's fixed address (${proxyAddress})`,
);
const subnet = compose.networks?.default?.ipam?.config?.[0]?.subnet;
check(
  subnet !== undefined && proxyAddress !== undefined && ipaddr.parse(proxyAddress).match(ipaddr.parseCIDR(subnet)),
  `compose.yaml: the proxy's address (${proxyAddress}) must be in the default network's subnet (${subnet})`,
);
const haproxyConfig = "deploy/haproxy/haproxy.cfg";
check(
  (proxy.volumes ?? []).some((volume) => String(volume).startsWith(`./${haproxyConfig}:`)),
  `compose.yaml: the proxy must mount ${haproxyConfig}`,
);
const haproxyLines = read(haproxyConfig)
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith("#"));
const bindPort = /^bind \S*:(\d+)$/.exec(haproxyLines.find((line) => line.startsWith("bind ")) ?? "")?.[1];
check(
  (proxy.ports ?? []).some((mapping) => containerPort(mapping) === bindPort),
  `compose.yaml: the proxy must publish the port ${haproxyConfig} binds (${bindPort})`,
);
const servers = haproxyLines.filter((line) => /^server(-template)? /.test(line));
check(servers.length > 0, `${haproxyConfig}: no server line`);
for (const server of servers) {
  const words = server.split(/\s+/);
  check(words.includes(`encore:${servicePort}`), `${haproxyConfig}: "${server}" must target encore:${servicePort}`);
  check(words.includes("send-proxy-v2"), `${haproxyConfig}: "${server}" must send the PROXY protocol (send-proxy-v2)`);
  check(words.includes("check"), `${haproxyConfig}: "${server}" must be health-checked`);
}
check(haproxyLines.includes("mode tcp"), `${haproxyConfig}: the proxy must pass TCP through (mode tcp)`);
check(
  haproxyLines.some((line) => /^http-check send .*\buri \/readyz\b/.test(line)),
  `${haproxyConfig}: the health check must ask /readyz`,
);

const composeGrace = Number(/^(\d+)s$/.exec(compose.services?.encore?.stop_grace_period ?? "")?.[1]);
const composeDrain = drainSecondsOf(compose.services?.encore?.environment?.SHUTDOWN_TIMEOUT_MS);
check(composeDrain > 0, "compose.yaml: SHUTDOWN_TIMEOUT_MS must be a number of milliseconds");
check(composeGrace > composeDrain, `compose.yaml: encore stop_grace_period must exceed the ${composeDrain} s drain`);

const models = {
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "apps/v1/Deployment": Deployment,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
};
const objects = [];
const k8sDir = "deploy/k8s/";
for (const file of readdirSync(new URL(k8sDir, root)).filter((f) => f.endsWith(".yaml"))) {
  for (const object of documents(k8sDir + file)) {
    if (object.kind === "Kustomization") {
      for (const resource of object.resources ?? []) {
        check(readdirSync(new URL(k8sDir, root)).includes(resource), `${file}: resource ${resource} missing`);
      }
      continue;
    }
    const Model = models[`${object.apiVersion}/${object.kind}`];
    if (!Model) {
      check(false, `${file}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (error) {
      check(false, `${file}: ${object.kind} ${error.message}`);
    }
    objects.push(object);
  }
}
const deployment = objects.find((o) => o.kind === "Deployment");
const pod = deployment?.spec?.template?.spec;
const container = pod?.containers?.[0];
const preStopSleep = Number(container?.lifecycle?.preStop?.exec?.command?.[1] ?? 0);
const configMap = objects.find((o) => o.kind === "ConfigMap");
const drainSeconds = drainSecondsOf(configMap?.data?.SHUTDOWN_TIMEOUT_MS);
check(drainSeconds > 0, "configmap: SHUTDOWN_TIMEOUT_MS must be a number of milliseconds");
check(
  pod?.terminationGracePeriodSeconds > preStopSleep + drainSeconds,
  `deployment: terminationGracePeriodSeconds must exceed preStop (${preStopSleep} s) + drain (${drainSeconds} s, SHUTDOWN_TIMEOUT_MS)`,
);
check(container?.readinessProbe?.httpGet?.path === "/readyz", "deployment: readiness probe must be /readyz");
check(container?.livenessProbe?.httpGet?.path === "/healthz", "deployment: liveness probe must be /healthz");
for (const name of ["ENCORE_MASTER_KEY", "OPERATOR_TOKEN", "DATABASE_URL"]) {
  const env = container?.env?.find((e) => e.name === name);
  check(env?.valueFrom?.secretKeyRef !== undefined, `deployment: ${name} must come from a Secret`);
}
check(pod?.securityContext?.runAsNonRoot === true, "deployment: runAsNonRoot must be true");
// It scales by replicas (docs/deploy.md "Replicas"): the autoscaler owns the Deployment's count.
const autoscaler = objects.find((o) => o.kind === "HorizontalPodAutoscaler");
check(
  autoscaler?.spec?.scaleTargetRef?.kind === "Deployment" &&
    autoscaler.spec.scaleTargetRef.name === deployment?.metadata?.name,
  "horizontalpodautoscaler: must scale the Deployment",
);
check(autoscaler?.spec?.minReplicas >= 2, "horizontalpodautoscaler: minReplicas must be at least 2");
for (const kind of ["Service", "PodDisruptionBudget", "HorizontalPodAutoscaler", "ConfigMap"]) {
  check(
    objects.some((o) => o.kind === kind),
    `deploy/k8s: no ${kind}`,
  );
}

if (problems.length > 0) {
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  process.exit(1);
}
process.stdout.write(
  `deploy lint: Dockerfile, compose.yaml, ${haproxyConfig} and ${objects.length} Kubernetes objects pass\n`,
);
