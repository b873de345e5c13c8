// The client's module graph has no cycle (issue 12 ended app.js ↔ game.js / home.js): screens
// import the router, never the page that routes to them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLIENT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../static/js');

/** Every module of static/js with the modules it imports. */
function importGraph() {
  const graph = new Map();
  for (const entry of readdirSync(CLIENT, { recursive: true })) {
    if (!entry.endsWith('.js')) continue;
    const file = join(CLIENT, entry);
    const imports = [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].map((m) => normalize(join(dirname(file), m[1])));
    graph.set(file, imports);
  }
  return graph;
}

/** The first cycle found by a depth-first walk, as module names, or null. */
function findCycle(graph) {
  const state = new Map();
  const walk = (node, path) => {
    state.set(node, 'open');
    for (const next of graph.get(node) || []) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = walk(next, [...path, next]);
        if (cycle) return cycle;
      }
    }
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    if (state.has(node)) continue;
    const cycle = walk(node, [node]);
    if (cycle) return cycle.map((f) => relative(CLIENT, f));
  }
  return null;
}

test('no module of static/js imports itself through others', () => {
  const graph = importGraph();
  assert.ok(graph.size > 10, `read ${graph.size} modules`);
  assert.equal(findCycle(graph), null);
});

test('the cycle finder finds a cycle when there is one', () => {
  const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', []]]);
  assert.deepEqual(findCycle(graph).length, 4);
});
