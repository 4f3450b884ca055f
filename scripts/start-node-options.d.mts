/** npm start's node options from its command, or undefined for a command of another shape. */
export function startNodeOptions(startCommand: string): string[] | undefined;
