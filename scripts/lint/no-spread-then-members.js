// ESLint rule `ipdata/no-spread-then-members`: an object literal that starts with a spread and
// has members after it (`{ ...request, subject }`, `{ ...a, ...b }`). V8 in Node 20 gives every
// object made that way a hidden class of its own: measured with --log-maps on bff-en under load,
// `{ ...request, subject }` in the quota path made one new Map per request (58,000 in 26 s), and
// the dead Maps, descriptor arrays and inline-cache handlers filled the old generation, which then
// ran a mark-compact every couple of seconds (services/bff-en/README.md, "Measured"). A literal
// that lists its properties, `{ a: x.a, b: x.b, c }`, or Object.assign({}, x, { c }) keeps one class.
// eslint.config.js turns it on for the per-request and per-event code only (HOT_PATH_FILES).

/** @type {import('eslint').Rule.RuleModule} */
export const noSpreadThenMembers = {
  meta: {
    type: 'problem',
    docs: { description: 'No object literal that starts with a spread and adds members after it (a V8 hidden class per object)' },
    messages: {
      spreadThenMembers:
        'On a hot path, `{ ...x, more }` gives each object its own hidden class in V8 (Node 20): list the properties, or use Object.assign({}, x, { more }).',
    },
    schema: [],
  },
  create(context) {
    return {
      ObjectExpression(node) {
        if (node.properties.length > 1 && node.properties[0]?.type === 'SpreadElement') {
          context.report({ node, messageId: 'spreadThenMembers' });
        }
      },
    };
  },
};
