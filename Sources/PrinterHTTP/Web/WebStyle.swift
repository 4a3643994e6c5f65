import PrinterCore

/// The page's style sheet, served at `/web/vprinter.css` (``WebAssets``).
///
/// Text and controls keep a contrast of at least 4.5:1 on their background (WCAG 2.1 AA); focus is always
/// visible; below 700 px (a phone) everything is one column and wide tables scroll on their own.
enum WebStyle {
    static let css = #"""
        :root{--text:#1b1b1b;--muted:#555;--line:#c8c8c8;--bg:#fff;--card:#f6f7f8;--link:#0b4fb3;
          --idle:#0a6b2d;--processing:#0b57d0;--stopped:#b3261e;--warn:#8a4b00;--focus:#c75000}
        *{box-sizing:border-box}
        body{font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:var(--text);
          background:var(--bg)}
        a{color:var(--link)}
        a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,figure:focus-visible,
        summary:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
        .skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5em}
        .skip:focus{left:.5em;z-index:10}
        .visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
        header.top{display:flex;flex-wrap:wrap;gap:.5em 1.5em;align-items:center;padding:.6em 1.2em;
          background:#22262b;color:#fff}
        header.top a{color:#fff}
        header.top .brand{font-weight:700;font-size:1.15em;text-decoration:none}
        header.top nav a{margin-right:1em}
        main{padding:0 1.2em 1.5em;max-width:1600px}
        footer{padding:0 1.2em}
        h1{font-size:1.6em;margin:.6em 0 .3em;overflow-wrap:anywhere}
        h2{font-size:1.25em;margin:1em 0 .4em}
        h3{font-size:1.05em;margin:.5em 0 .3em}
        table{border-collapse:collapse;margin:.4em 0}
        th,td{padding:.35em .7em;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
        thead th{background:var(--card)}
        .scroll{overflow-x:auto;max-width:100%;position:relative}
        code{font-size:.92em;overflow-wrap:anywhere}
        .hash{font-size:.8em}
        .muted,.hint,small,.why{color:var(--muted)}
        .why{font-size:.9em}
        .live{color:var(--muted);font-size:.85em}
        .badge{display:inline-block;padding:0 .5em;border-radius:1em;border:1px solid currentColor;font-weight:600;
          font-size:.9em;white-space:nowrap}
        .state-idle,.state-completed{color:var(--idle)}
        .state-processing,.state-pending{color:var(--processing)}
        .state-stopped,.state-aborted,.state-canceled,.state-processing-stopped,.state-pending-held{color:var(--stopped)}
        .power-off{color:var(--stopped);font-weight:600}
        .result{min-height:1.4em;margin:.6em 0;font-weight:600}
        .result.failed{color:var(--stopped)}
        .result.done{color:var(--idle)}
        .error{color:var(--stopped);font-weight:600}
        .warn{color:var(--warn)}
        button{font:inherit;min-height:2.4em;padding:.2em .9em;border:1px solid #4a4f55;border-radius:.35em;
          background:#fff;color:var(--text);cursor:pointer}
        button:hover:not([disabled]){background:#eef3fb}
        button[disabled]{color:#666;border-color:#999;background:#eee;cursor:not-allowed}
        button[aria-busy=true]{cursor:progress}
        input,select{font:inherit;min-height:2.4em;padding:.2em .4em;border:1px solid #6b7178;border-radius:.3em;
          max-width:100%}
        input[type=number]{width:6.5em}
        label{display:inline-flex;flex-wrap:wrap;gap:.3em;align-items:center;margin:.2em 1em .2em 0}
        fieldset.controls{border:0;padding:0;margin:0;min-width:0;position:relative}
        fieldset.controls>legend{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
        .no-js-note{display:none}
        fieldset.controls[disabled] .no-js-note{display:block;color:var(--muted);font-size:.9em}
        form{margin:.3em 0}
        form.search{display:flex;flex-wrap:wrap;align-items:flex-end;gap:.2em;margin:.5em 0}
        dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em;margin:.4em 0}
        dl.facts dt{font-weight:600}
        dl.facts dd{margin:0;overflow-wrap:anywhere}
        .card.wide dl.facts,dl.job-summary{grid-template-columns:max-content minmax(10em,1fr) max-content minmax(10em,1fr)
          max-content minmax(10em,1fr)}
        .reasons-alert{color:var(--stopped);font-weight:600}
        .panel{display:grid;grid-template-columns:repeat(auto-fill,minmax(22em,1fr));gap:1em;align-items:start}
        .card{background:var(--card);border:1px solid var(--line);border-radius:.5em;padding:0 1em .8em}
        .card.wide{grid-column:1/-1}
        ul.switches,ul.trays,ul.supplies{list-style:none;padding:0;margin:0}
        ul.switches li{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.4em;
          padding:.35em 0;border-bottom:1px solid var(--line)}
        ul.trays>li,ul.supplies>li{padding:.4em 0;border-bottom:1px solid var(--line)}
        meter{width:8em;height:1em;vertical-align:middle}
        .level{display:inline-flex;gap:.4em;align-items:center;margin-right:.8em;white-space:nowrap}
        .thumbs{white-space:nowrap}
        .thumbs img{height:64px;width:auto;border:1px solid #888;background:#fff;margin:1px;vertical-align:middle}
        .scan-files a{display:inline-flex;flex-direction:column;align-items:flex-start;gap:.2em;margin:0 .6em .4em 0;
          vertical-align:top}
        .scan-files img{max-width:6em;height:auto;border:1px solid #888;background:#fff}
        .pager{display:flex;flex-wrap:wrap;gap:.6em 1.2em;align-items:center;margin:.6em 0}
        .pager-off{color:#666}
        tr.changed td{background:#fff4e0}
        .crumbs{margin:.6em 0}
        .toolbar{display:flex;flex-wrap:wrap;gap:.5em 1em;align-items:center}
        .sheet{margin:1em 0 1.5em}
        .pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr) minmax(14em,.7fr);gap:1em;
          align-items:start}
        .side{margin:0;border:2px solid transparent;border-radius:.3em}
        .side.current{border-color:var(--focus)}
        .side.none{display:flex;align-items:center;justify-content:center;min-height:8em;border:1px dashed var(--line);
          color:var(--muted);padding:1em}
        .frame{line-height:0}
        .canvas{position:relative}
        .frame img{width:100%;height:auto;border:1px solid #777;background:#fff;box-shadow:0 1px 4px rgba(0,0,0,.2)}
        .cells{list-style:none;margin:0;padding:0;position:absolute;inset:0;pointer-events:none}
        .cells li{position:absolute;border:1px dashed rgba(11,79,179,.55)}
        .cells span{position:absolute;left:4px;top:4px;line-height:1.3;background:#0b4fb3;color:#fff;font-size:13px;
          font-weight:600;padding:1px 6px;border-radius:3px}
        figcaption{font-size:.88em;color:var(--muted);margin-top:.3em;line-height:1.35}
        figcaption b{color:var(--text)}
        .texts{min-width:0}
        .side-text{border:1px solid var(--line);border-radius:.3em;padding:0 .6em .4em;margin-bottom:.6em;background:#fff}
        .side-text.current{border-color:var(--focus)}
        .side-text h4{margin:.4em 0;font-size:.95em}
        .side-text pre{white-space:pre-wrap;overflow-wrap:anywhere;max-height:28em;overflow:auto;margin:0;font-size:.85em}
        .viewer.zoomed .pair{grid-template-columns:1fr;overflow-x:auto}
        .viewer.zoomed .frame{overflow:auto;max-height:90vh}
        .viewer.zoomed .frame img{width:auto;max-width:none}
        .viewer.zoomed .canvas{display:inline-block}
        kbd{border:1px solid #888;border-radius:3px;padding:0 .3em;font-size:.85em;background:#fff}
        ol.requests{list-style:none;padding:0}
        ol.requests li{border-bottom:1px solid var(--line);padding:.3em 0}
        ol.requests summary{cursor:pointer;overflow-wrap:anywhere}
        ol.requests .agent{color:var(--muted);font-size:.88em}
        .finding{border-radius:.3em;padding:0 .35em;font-size:.88em}
        .finding.error{background:#fdd;color:#800}
        .finding.warning{background:#ffefc2;color:#6a4a00}
        .finding.info{background:#e5eefc;color:#1d3e73}
        ul.findings{list-style:none;padding:0}
        ul.findings li{margin:.2em 0}
        ol.requests dl{display:grid;grid-template-columns:max-content 1fr;gap:0 1em}
        table.attributes caption{text-align:left;font-weight:600}
        @media (max-width:1100px){.card.wide dl.facts,dl.job-summary{grid-template-columns:max-content 1fr max-content 1fr}
          .pair{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}.texts{grid-column:1/-1}}
        @media (max-width:700px){
          main{padding:0 .7em 1em}
          header.top{padding:.5em .7em}
          .pair{grid-template-columns:1fr}
          .panel{grid-template-columns:1fr}
          h1{font-size:1.35em}
          th,td{padding:.3em .45em}
          form.search label{flex:1 1 100%}
          form.search input,form.search select{flex:1 1 auto}
          dl.facts,.card.wide dl.facts,dl.job-summary{grid-template-columns:max-content 1fr}
          dl.facts dt{margin-top:.3em}
        }
        """#
}
