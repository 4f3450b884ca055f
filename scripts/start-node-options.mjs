// npm start's node options, read from its command in package.json
// (`exec node <options> --import <check> dist/src/main.js`): what the image's CMD must repeat
// (scripts/deploy-lint.mjs) and what tests and the bench start the built service with
// (test/support/service-node-options.ts). Undefined when the command is of another shape.

/** @param {string} startCommand @returns {string[] | undefined} */
export function startNodeOptions(startCommand) {
  const options = /^exec node (.*?) ?--import \S+ dist\/src\/main\.js$/.exec(startCommand)?.[1];
  return options?.split(" ").filter(Boolean);
}
