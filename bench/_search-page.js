// Page-side halves of bench/search.ts (plain browser JS, injected into the headless page).
/* eslint-disable */
(function () {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));

  window.benchFirstPaint = async function (messages, total) {
    const t0 = performance.now();
    // The page fires this in the frame that rendered the rows; the next frame's start means they
    // were presented (same rule as the plain table below).
    const painted = new Promise((resolve) =>
      document.addEventListener('cloudbench:painted', () => requestAnimationFrame(() => resolve(performance.now())), {
        once: true,
      }),
    );
    // What the extension posts (controller.ts postResults): a table of the first 200 rows, then one
    // of the rest (built in Node by the bench, whose time it adds).
    for (const m of messages) window.postMessage(m, '*');
    const paintedAt = await painted;
    if (document.querySelectorAll('#spacer .row[data-index]').length === 0) throw new Error('no rows painted');
    const cells = [...document.querySelectorAll('#spacer .row .cell')].map((c) => c.textContent);
    if (document.querySelector('#app img') || window.__pwned || !cells.some((t) => t.includes('<img src=x'))) {
      throw new Error('a hostile field was not shown as plain text');
    }
    const firstPaint = paintedAt - t0;
    // Everything after this waits until all rows are in the table.
    const want = total.toLocaleString('en-US') + ' rows';
    while (document.getElementById('count').textContent !== want) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => requestAnimationFrame(() => r()));
    window.__allRowsMs = performance.now() - t0;
    return firstPaint;
  };

  window.benchAllRows = async function () {
    return window.__allRowsMs;
  };

  window.benchScroll = async function () {
    const longTasks = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.duration > 50) longTasks.push(entry.duration);
    });
    // Let the work that follows loading (timeline, search texts) finish before scrolling starts.
    await new Promise((r) => setTimeout(r, 300));
    await frame();
    observer.observe({ type: 'longtask', buffered: false });
    const viewport = document.getElementById('viewport');
    let steps = 0;
    let maxIndex = 0;
    await frame();
    while (viewport.scrollTop + viewport.clientHeight < viewport.scrollHeight - 1) {
      viewport.scrollTop += viewport.clientHeight * 0.9;
      await frame();
      await frame();
      steps++;
      for (const row of document.querySelectorAll('#spacer .row[data-index]')) {
        if (row.style.display !== 'none') maxIndex = Math.max(maxIndex, Number(row.dataset.index));
      }
    }
    await new Promise((r) => setTimeout(r, 100));
    observer.disconnect();
    return { longTasks: longTasks.length, longest: Math.max(0, ...longTasks), steps, rowsSeen: maxIndex + 1 };
  };

  window.benchSort = async function (column) {
    const header = document.querySelector(`#grid-header [data-column="${column}"]`);
    const t0 = performance.now();
    header.click();
    await frame();
    return performance.now() - t0;
  };

  window.benchFilter = async function (text) {
    const input = document.getElementById('filter');
    const count = document.getElementById('count');
    const before = count.textContent;
    const t0 = performance.now();
    input.value = text;
    input.dispatchEvent(new Event('input'));
    // The page waits 120 ms for typing to pause; that delay is not the filter's cost.
    while (count.textContent === before) await new Promise((r) => setTimeout(r, 5));
    await frame();
    return performance.now() - t0 - 120;
  };

  /** The same rows in a plain table: every row in the DOM, no virtualization. */
  window.benchPlainTable = async function (text, cols) {
    const t0 = performance.now();
    const body = JSON.parse(text);
    const valuesAt = (root, path) => {
      let cur = [root];
      for (const seg of path.split('.')) {
        const next = [];
        for (const v of cur) {
          if (Array.isArray(v)) {
            for (const item of v) if (item && typeof item === 'object' && seg in item) next.push(item[seg]);
          } else if (v && typeof v === 'object' && seg in v) next.push(v[seg]);
        }
        cur = next;
      }
      return cur.flatMap((v) => (Array.isArray(v) ? v : [v]));
    };
    const cell = (row, c) => {
      for (const p of [c.id, ...(c.fallbacks || [])]) {
        const vs = valuesAt(row, p);
        if (vs.length) return vs.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
      }
      return '';
    };
    const table = document.createElement('table');
    const head = table.createTHead().insertRow();
    for (const c of cols) head.insertCell().textContent = c.label;
    const tbody = table.createTBody();
    for (const row of body.events) {
      const tr = tbody.insertRow();
      for (const c of cols) tr.insertCell().textContent = cell(row, c);
    }
    document.getElementById('host').append(table);
    await frame();
    await frame();
    return performance.now() - t0;
  };
})();
