// brasp playground worker: runs the playground's Go code, compiled to
// WebAssembly (brasp.wasm, written with wasm_exec.js by `brasp site`), and
// answers the page's API requests with it. The page terminates and
// restarts a worker whose computation outlives its time limit.
"use strict";

importScripts("wasm_exec.js");

const queue = [];
let call = null;

// braspReady is called by the Go program once braspCall is defined.
self.braspReady = () => {
  call = self.braspCall;
  postMessage({ ready: true });
  for (const m of queue.splice(0)) answer(m);
};

function answer(m) {
  call(m.method, m.path, m.body, (status, contentType, filename, bytes) => {
    postMessage({ id: m.id, status, contentType, filename, bytes }, [bytes.buffer]);
  });
}

self.onmessage = (e) => {
  if (call) answer(e.data);
  else queue.push(e.data);
};

async function load() {
  const go = new Go();
  let result;
  try {
    result = await WebAssembly.instantiateStreaming(fetch("brasp.wasm"), go.importObject);
  } catch (e) {
    // A server that does not send application/wasm: compile from the bytes.
    const r = await fetch("brasp.wasm");
    if (!r.ok) throw new Error(`brasp.wasm: ${r.status} ${r.statusText}`);
    result = await WebAssembly.instantiate(await r.arrayBuffer(), go.importObject);
  }
  go.run(result.instance);
}

load().catch((e) => postMessage({ fatal: String(e && e.message || e) }));
