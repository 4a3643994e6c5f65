import PrinterCore

/// The page's one script, served at `/web/vprinter.js` (``WebAssets``): no framework, no build step.
///
/// What it does, and nothing else: enables the controls (they are disabled without JavaScript); sends each
/// control's JSON API call (`data-call="METHOD PATH"`, the JSON of `data-body` or of the control's form) after
/// asking when `data-confirm` says so, and shows the answer; replaces the page's `data-live` parts with a fresh
/// copy from the server after each call and when the event stream reports a change for what the page shows; in
/// the viewer, moves between sides and jobs with the keyboard, zooms to 100 % and fills in the text of sides read
/// by OCR. Every page is rendered by the server, so the script never builds markup from data.
enum WebScript {
    static let source = #"""
        (function () {
          'use strict';
          var body = document.body;
          var live = document.getElementById('live');
          var resultLine = document.getElementById('result');
          var scope = body.getAttribute('data-live-scope') || 'all';

          function enable(root) {
            var list = root.querySelectorAll('[data-needs-js]');
            for (var i = 0; i < list.length; i++) { list[i].disabled = false; }
            if (root.hasAttribute && root.hasAttribute('data-needs-js')) { root.disabled = false; }
          }
          enable(document);
          body.classList.add('js');

          function say(message, failed) {
            if (!resultLine) { return; }
            resultLine.textContent = message;
            resultLine.className = failed ? 'result failed' : 'result done';
            resultLine.setAttribute('role', failed ? 'alert' : 'status');
          }

          // One or more calls, "METHOD PATH ; METHOD PATH", one after the other; the last answer is kept.
          function call(spec, bodyText) {
            var last = null;
            var chain = Promise.resolve();
            spec.split(' ; ').forEach(function (part) {
              var space = part.indexOf(' ');
              var method = part.slice(0, space);
              var url = part.slice(space + 1);
              chain = chain.then(function () {
                var init = { method: method, credentials: 'same-origin', headers: { 'Accept': 'application/json' } };
                if (bodyText !== null && method === 'POST') {
                  init.body = bodyText;
                  init.headers['Content-Type'] = 'application/json';
                }
                return fetch(url, init).then(function (response) {
                  return response.text().then(function (text) {
                    var data = null;
                    try { data = JSON.parse(text); } catch (ignored) { data = null; }
                    if (!response.ok) {
                      throw new Error(method + ' ' + url + ' answered ' + response.status + ': ' +
                        ((data && data.error) || text.slice(0, 200)));
                    }
                    last = { method: method, url: url, status: response.status, data: data };
                  });
                });
              });
            });
            return chain.then(function () { return last; });
          }

          function describe(label, answer) {
            var data = (answer && answer.data) || {};
            var words = label + ': done';
            if (typeof data.deleted === 'number') { words = label + ': deleted ' + data.deleted + ' job(s)'; }
            else if (typeof data.deleted === 'string') { words = label + ': printer ' + data.deleted + ' deleted'; }
            else if (typeof data.cleared === 'number') { words = label + ': ' + data.cleared + ' fault(s) cleared'; }
            else if (data.scenario) { words = label + ': scenario ' + data.scenario + ' playing'; }
            else if (data.stopped) { words = label + ': scenario ' + data.stopped + ' stopped'; }
            else if (data.added) { words = label + ': fault(s) ' + data.added.join(', ') + ' added'; }
            else if (data.power) { words = label + ': power ' + data.power; }
            else if (typeof data['feeder-sheets'] === 'number') {
              words = label + ': scanner ' + data.state + ', ' + data['feeder-sheets'] + ' sheet(s) in the feeder, ' +
                'faults: ' + ((data.faults || []).join(', ') || 'none');
            }
            if (data['printer-state']) {
              words += '; ' + (data['printer-name'] || 'printer') + ' is ' + data['printer-state'] + ' (' +
                (data['printer-state-reasons'] || []).join(', ') + ')';
            }
            return words + '.';
          }

          function run(control, spec, bodyText, label) {
            var question = control.getAttribute('data-confirm');
            if (question && !window.confirm(question)) { say(label + ': not done.', false); return; }
            control.setAttribute('aria-busy', 'true');
            say(label + '…', false);
            call(spec, bodyText).then(function (answer) {
              say(describe(label, answer), false);
              if (control.tagName === 'FORM' && control.id === 'create-printer') { control.reset(); }
              return refresh();
            }).catch(function (error) {
              say(label + ' failed: ' + error.message, true);
              return refresh();
            }).then(function () { control.removeAttribute('aria-busy'); });
          }

          document.addEventListener('click', function (event) {
            var button = event.target.closest ? event.target.closest('button[data-call]') : null;
            if (!button || button.disabled) { return; }
            event.preventDefault();
            run(button, button.getAttribute('data-call'), button.getAttribute('data-body'),
              button.textContent.trim());
          });

          function formJSON(form) {
            var object = {};
            for (var i = 0; i < form.elements.length; i++) {
              var field = form.elements[i];
              if (!field.name || field.disabled || field.value === '') { continue; }
              var value = field.value;
              if (field.type === 'number' || field.getAttribute('data-type') === 'number') {
                value = Number(value);
                if (!isFinite(value)) { continue; }
              }
              object[field.name] = value;
            }
            return JSON.stringify(object);
          }

          document.addEventListener('submit', function (event) {
            var form = event.target;
            if (!form.hasAttribute('data-call')) { return; }
            event.preventDefault();
            var submit = form.querySelector('button[type=submit]');
            run(form, form.getAttribute('data-call'), formJSON(form), submit ? submit.textContent.trim() : 'Send');
          });

          // Fresh copies of the data-live parts; a part holding a field being edited is left alone until the
          // focus leaves that field (then it is refreshed once), so that nothing a person types is replaced.
          var timer = null;
          var inFlight = null;
          var again = false;
          var afterEditing = false;
          function refresh() {
            if (inFlight) { again = true; return inFlight; }
            inFlight = fetch(location.href, { cache: 'no-store', credentials: 'same-origin' })
              .then(function (response) { return response.text(); })
              .then(function (text) {
                var fresh = new DOMParser().parseFromString(text, 'text/html');
                var parts = document.querySelectorAll('[data-live]');
                for (var i = 0; i < parts.length; i++) {
                  var old = parts[i];
                  var replacement = old.id ? fresh.getElementById(old.id) : null;
                  if (!replacement) { continue; }
                  var active = document.activeElement;
                  var holdsFocus = active && old.contains(active);
                  if (holdsFocus && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName)) { afterEditing = true; continue; }
                  var focusID = holdsFocus ? active.id : null;
                  replacement = document.importNode(replacement, true);
                  old.parentNode.replaceChild(replacement, old);
                  enable(replacement);
                  if (focusID && document.getElementById(focusID)) { document.getElementById(focusID).focus(); }
                }
                afterRefresh();
              })
              .catch(function () { return null; })
              .then(function () {
                inFlight = null;
                if (again) { again = false; schedule(); }
              });
            return inFlight;
          }
          function schedule() {
            if (timer === null) { timer = setTimeout(function () { timer = null; refresh(); }, 300); }
          }
          document.addEventListener('focusout', function (event) {
            if (!afterEditing || !/^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) { return; }
            afterEditing = false;
            schedule();
          });

          // The event stream, closed when the page is hidden (a browser keeps at most six connections to a server,
          // and a page kept for the back button would hold its stream open), opened again when it shows.
          var source = null;
          function connect() {
            if (!window.EventSource || source) { return; }
            source = new EventSource('/api/v1/events');
            source.onopen = function () { live.textContent = 'Live: this page follows /api/v1/events.'; };
            source.onerror = function () { live.textContent = 'Event stream lost; retrying.'; };
            ['job-created', 'job-state-changed', 'job-progress', 'printer-state-changed', 'printer-config-changed',
              'scan-state-changed']
              .forEach(function (kind) {
                source.addEventListener(kind, function (event) {
                  var data = {};
                  try { data = JSON.parse(event.data); } catch (ignored) { data = {}; }
                  if (scope === 'printer' && data['printer-name'] !== body.getAttribute('data-live-printer')) { return; }
                  // A scan job's number is no print job's id: a job's page does not show scans.
                  if (scope === 'job' && (kind === 'scan-state-changed' ||
                      data['job-id'] !== Number(body.getAttribute('data-live-job')))) { return; }
                  schedule();
                });
              });
          }
          connect();
          window.addEventListener('pagehide', function () {
            if (source) { source.close(); source = null; }
          });
          window.addEventListener('pageshow', function (event) {
            if (!source) { connect(); }
            if (event.persisted) { refresh(); }
          });

          // The viewer: sides, zoom, keys, text read by OCR.
          var position = document.getElementById('side-position');
          var zoom = document.getElementById('zoom');
          var current = -1;
          function sides() { return Array.prototype.slice.call(document.querySelectorAll('figure.side')); }
          function show(index, focus) {
            var list = sides();
            if (!list.length) { return; }
            current = Math.max(0, Math.min(list.length - 1, index));
            var side = list[current];
            list.forEach(function (each, i) { each.classList.toggle('current', i === current); });
            var texts = document.querySelectorAll('.side-text');
            for (var i = 0; i < texts.length; i++) {
              texts[i].classList.toggle('current', texts[i].getAttribute('data-side') === side.getAttribute('data-side'));
            }
            if (position) { position.textContent = 'Side ' + side.getAttribute('data-side') + ' of ' + list.length; }
            if (focus) {
              side.focus({ preventScroll: true });
              side.scrollIntoView({ block: 'center', inline: 'nearest' });
              if (history.replaceState) { history.replaceState(null, '', '#side-' + side.getAttribute('data-side')); }
            }
          }
          function go(id) {
            var link = document.getElementById(id);
            if (link) { location.href = link.href; }
          }
          function toggleZoom() {
            if (!zoom) { return; }
            var on = zoom.getAttribute('aria-pressed') !== 'true';
            zoom.setAttribute('aria-pressed', on ? 'true' : 'false');
            zoom.textContent = on ? 'Fit to the window' : 'Zoom to 100 %';
            document.querySelector('.viewer').classList.toggle('zoomed', on);
            if (current >= 0) { show(current, true); }
          }
          if (zoom) { zoom.addEventListener('click', toggleZoom); }
          document.addEventListener('keydown', function (event) {
            if (event.altKey || event.ctrlKey || event.metaKey || !document.getElementById('sheets')) { return; }
            if (/^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) { return; }
            switch (event.key) {
              case 'ArrowRight': case 'j': show(current + 1, true); break;
              case 'ArrowLeft': case 'k': show(current < 0 ? 0 : current - 1, true); break;
              case ']': go('newer-job'); break;
              case '[': go('older-job'); break;
              case 'z': toggleZoom(); break;
              default: return;
            }
            event.preventDefault();
          });
          document.addEventListener('click', function (event) {
            var side = event.target.closest ? event.target.closest('figure.side') : null;
            if (side) { show(sides().indexOf(side), false); }
          });

          var readingText = false;
          function fillText() {
            var waiting = document.querySelectorAll('[data-ocr-side]');
            var jobID = body.getAttribute('data-live-job');
            if (!waiting.length || readingText || !jobID) { return; }
            readingText = true;
            for (var i = 0; i < waiting.length; i++) { waiting[i].textContent = 'Reading this side by OCR…'; }
            fetch('/api/v1/jobs/' + jobID + '/text', { credentials: 'same-origin' })
              .then(function (response) { return response.json(); })
              .then(function (answer) {
                (answer.sides || []).forEach(function (side) {
                  var place = document.querySelector('[data-ocr-side="' + side.number + '"]');
                  if (!place) { return; }
                  if (typeof side.text === 'string') {
                    var pre = document.createElement('pre');
                    pre.textContent = side.text.trim() || '(no text on this side)';
                    place.parentNode.replaceChild(pre, place);
                  } else {
                    place.textContent = side.message || 'The text could not be read.';
                    place.removeAttribute('data-ocr-side');
                  }
                });
              })
              .catch(function () { return null; })
              .then(function () { readingText = false; });
          }

          function afterRefresh() {
            if (current >= 0) { show(current, false); }
            fillText();
          }
          var start = /^#side-(\d+)$/.exec(location.hash);
          if (start) {
            var list = sides();
            for (var i = 0; i < list.length; i++) {
              if (list[i].getAttribute('data-side') === start[1]) { show(i, true); }
            }
          }
          fillText();
        })();
        """#
}
