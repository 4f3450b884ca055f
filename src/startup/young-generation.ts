/**
 * Below 2 GB of memory (a container's limit, or the machine's) node has V8 size its young
 * generation under the 8 MB semi-space the service runs with, down to 1 MB at 512 MB, and a
 * purchase then costs more CPU (docs/performance.md, "Memory"). The image and `npm start` pass `--max-semi-space-size`; a service started another
 * way is told at start.
 */
const SERVICE_SIZE_FROM_BYTES = 2 * 2 ** 30;
// V8 takes its flags with dashes or underscores alike.
const SEMI_SPACE_OPTION = /(^|\s)--max[-_]semi[-_]space[-_]size(=|\s)/;

export interface NodeMemory {
  /** The machine's memory (os.totalmem()). */
  totalBytes: number;
  /** The process's memory limit (process.constrainedMemory()): 0 or more than the machine when none. */
  constrainedBytes: number;
  execArgv: readonly string[];
  /** NODE_OPTIONS, whose options process.execArgv does not list. */
  nodeOptions: string | undefined;
}

/** When V8's young generation is smaller than the service runs with: how much memory it was sized by, and what to do. */
export function smallYoungGeneration(memory: NodeMemory): { memoryMb: number; message: string } | undefined {
  const limit = memory.constrainedBytes > 0 ? Math.min(memory.totalBytes, memory.constrainedBytes) : memory.totalBytes;
  if (limit >= SERVICE_SIZE_FROM_BYTES) return undefined;
  if (SEMI_SPACE_OPTION.test(memory.execArgv.join(" ")) || SEMI_SPACE_OPTION.test(memory.nodeOptions ?? "")) {
    return undefined;
  }
  const memoryMb = Math.round(limit / 2 ** 20);
  return {
    memoryMb,
    message: `V8 sized its young generation by this process's ${memoryMb} MB of memory, and every purchase costs more CPU for it: start node with --max-semi-space-size=8, as the image and npm start do (docs/deploy.md)`,
  };
}
