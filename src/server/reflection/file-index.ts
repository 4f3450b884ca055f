import type { DescExtension, DescFile, DescService } from "@bufbuild/protobuf";
import { nestedTypes } from "@bufbuild/protobuf/reflect";

/** Every file a set of services needs, and where each fully-qualified name is declared. */
export interface FileIndex {
  /** Full names of the services, in the order given. */
  readonly services: readonly string[];
  fileByName(name: string): DescFile | undefined;
  /** A message, field, enum, enum value, service, method or extension by its fully-qualified name. */
  fileContainingSymbol(symbol: string): DescFile | undefined;
  /** The extensions declared for a message type; undefined when no file declares the type. */
  extensionsOf(typeName: string): readonly DescExtension[] | undefined;
  /** The file, then every file it imports (transitively), each once. */
  withDependencies(file: DescFile): DescFile[];
}

/**
 * Indexes the services' files with their whole import graph (google/api, google/rpc,
 * google/type, google/longrunning, google/protobuf), so a reflection client can rebuild
 * every type a method mentions.
 */
export function createFileIndex(services: readonly DescService[]): FileIndex {
  const files = new Map<string, DescFile>();
  const symbols = new Map<string, DescFile>();
  const messages = new Set<string>();
  const extensions = new Map<string, DescExtension[]>();
  const add = (file: DescFile): void => {
    if (files.has(file.proto.name)) return;
    files.set(file.proto.name, file);
    for (const type of nestedTypes(file)) {
      symbols.set(type.typeName, file);
      if (type.kind === "message") {
        messages.add(type.typeName);
        for (const f of type.fields) symbols.set(`${type.typeName}.${f.name}`, file);
      }
      // Enum values are scoped like their enum's siblings (protobuf name scoping).
      if (type.kind === "enum") for (const v of type.values) symbols.set(scopeOf(type.typeName) + v.name, file);
      if (type.kind === "service") for (const m of type.methods) symbols.set(`${type.typeName}.${m.name}`, file);
      if (type.kind === "extension") {
        const list = extensions.get(type.extendee.typeName) ?? [];
        list.push(type);
        extensions.set(type.extendee.typeName, list);
      }
    }
    for (const dependency of file.dependencies) add(dependency);
  };
  for (const service of services) add(service.file);

  return {
    services: [...new Set(services.map((s) => s.typeName))],
    fileByName: (name) => files.get(name),
    fileContainingSymbol: (symbol) => symbols.get(symbol),
    extensionsOf: (typeName) => (messages.has(typeName) ? (extensions.get(typeName) ?? []) : undefined),
    withDependencies(file) {
      const out = new Map<string, DescFile>();
      const walk = (f: DescFile): void => {
        if (out.has(f.proto.name)) return;
        out.set(f.proto.name, f);
        for (const d of f.dependencies) walk(d);
      };
      walk(file);
      return [...out.values()];
    },
  };
}

function scopeOf(typeName: string): string {
  const dot = typeName.lastIndexOf(".");
  return dot < 0 ? "" : typeName.slice(0, dot + 1);
}
