// tansaku pages (render/page.h): the solution player and the chart's scale toggle.
// Embedded at build time; nothing is fetched. `tansakuPlayer(root, data)` is the entry point
// the web app (`tansaku serve`) reuses: data = {frames: [svg...], labels: [...], steps: N,
// sampled: bool}; frames[i] is the position after step i (frames[0] the start) unless
// `sampled`, where only the start and the end are drawn and the steps are listed.
(function () {
  'use strict';

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function tansakuPlayer(root, data) {
    var frames = data.frames || [], labels = data.labels || [];
    var steps = labels.length;
    var sampled = !!data.sampled;  // start and end only
    var last = sampled ? (frames.length > 1 ? 1 : 0) : frames.length - 1;
    root.textContent = '';
    var board = el('div', 'board');
    board.setAttribute('aria-live', 'polite');
    var controls = el('div', 'controls');
    function button(act, text, title) {
      var b = el('button', null, text);
      b.type = 'button';
      b.dataset.act = act;
      b.title = title;
      controls.appendChild(b);
      return b;
    }
    var bFirst = button('first', '|\u25C0', 'first (Home)');
    var bPrev = button('prev', '\u25C0', 'previous (\u2190)');
    var bPlay = button('play', '\u25B6 play', 'play / pause (space)');
    var bNext = button('next', '\u25B6', 'next (\u2192)');
    var bLast = button('last', '\u25B6|', 'last (End)');
    var slider = el('input');
    slider.type = 'range';
    slider.min = 0;
    slider.max = last;
    slider.value = 0;
    slider.setAttribute('aria-label', 'step');
    controls.appendChild(slider);
    var stepText = el('span', 'step');
    var labelText = el('span', 'label');
    controls.appendChild(stepText);
    controls.appendChild(labelText);
    var list = el('ol', 'moves');
    var items = [];
    labels.forEach(function (l, i) {
      var li = el('li', null, String(l));
      li.title = 'step ' + (i + 1);
      li.addEventListener('click', function () { if (!sampled) go(i + 1); });
      items.push(li);
      list.appendChild(li);
    });
    root.appendChild(board);
    root.appendChild(controls);
    if (steps > 0) root.appendChild(list);

    var at = -1, timer = null;
    function go(i) {
      i = Math.max(0, Math.min(last, i | 0));
      if (i === at) return;
      if (at > 0 && !sampled && items[at - 1]) items[at - 1].classList.remove('current');
      at = i;
      board.innerHTML = frames[i] || '';
      slider.value = i;
      if (sampled) {
        stepText.textContent = i === 0 ? 'start' : 'after all ' + steps + ' steps';
        labelText.textContent = '';
      } else {
        stepText.textContent = 'step ' + i + ' / ' + last;
        labelText.textContent = i === 0 ? (steps ? 'start' : '') : String(labels[i - 1]);
        if (i > 0 && items[i - 1]) {
          items[i - 1].classList.add('current');
          if (items[i - 1].scrollIntoView && list.scrollHeight > list.clientHeight)
            items[i - 1].scrollIntoView({block: 'nearest'});
        }
      }
      bFirst.disabled = bPrev.disabled = i === 0;
      bNext.disabled = bLast.disabled = i === last;
      root.dispatchEvent(new CustomEvent('tansaku:step', {detail: {step: i}}));
    }
    function stop() {
      if (timer) clearInterval(timer);
      timer = null;
      bPlay.textContent = '\u25B6 play';
    }
    function play() {
      if (timer) return stop();
      if (at === last) go(0);
      bPlay.textContent = '\u2016 pause';
      var delay = Math.max(60, Math.min(600, 12000 / Math.max(1, last)));
      timer = setInterval(function () {
        if (at >= last) return stop();
        go(at + 1);
      }, delay);
    }
    controls.addEventListener('click', function (e) {
      var act = e.target && e.target.dataset ? e.target.dataset.act : null;
      if (!act) return;
      if (act !== 'play') stop();
      if (act === 'first') go(0);
      else if (act === 'prev') go(at - 1);
      else if (act === 'next') go(at + 1);
      else if (act === 'last') go(last);
      else if (act === 'play') play();
    });
    slider.addEventListener('input', function () { stop(); go(+slider.value); });
    root.tabIndex = 0;
    function key(e) {
      if (e.target && (e.target.tagName === 'INPUT' && e.target !== slider || e.target.tagName === 'TEXTAREA')) return;
      var k = e.key;
      if (k === 'ArrowRight') { stop(); go(at + 1); }
      else if (k === 'ArrowLeft') { stop(); go(at - 1); }
      else if (k === 'Home') { stop(); go(0); }
      else if (k === 'End') { stop(); go(last); }
      else if (k === ' ' && e.target === root) play();
      else return;
      e.preventDefault();
    }
    // One player on the page: the arrow keys work anywhere; several: when the player has focus.
    (document.querySelectorAll('[data-player]').length <= 1 ? document : root).addEventListener('keydown', key);
    // "#step=N" in the address opens the page at step N (links, screenshots).
    var m = /[#&]step=(\d+)/.exec(location.hash || '');
    go(m ? +m[1] : 0);
    return {go: go, step: function () { return at; }, last: last, stop: stop};
  }

  // The histogram's linear / log scale (bars carry both heights).
  function tansakuChart(chart) {
    var box = chart.querySelector('input[data-scale]');
    if (!box) return;
    function apply() {
      var mode = box.checked ? 'log' : 'lin';
      chart.querySelectorAll('[data-lin-y]').forEach(function (r) {
        r.setAttribute('y', r.dataset[mode + 'Y']);
        if (r.dataset[mode + 'H'] !== undefined) r.setAttribute('height', r.dataset[mode + 'H']);
      });
    }
    box.addEventListener('change', apply);
    apply();
  }

  window.tansakuPlayer = tansakuPlayer;
  window.tansakuChart = tansakuChart;
  document.addEventListener('DOMContentLoaded', function () {
    document.querySelectorAll('[data-player]').forEach(function (root) {
      var src = root.querySelector('script[type="application/json"]');
      if (!src) return;
      var data = JSON.parse(src.textContent);
      root.tansaku = tansakuPlayer(root, data);
    });
    document.querySelectorAll('.chart').forEach(tansakuChart);
  });
})();
