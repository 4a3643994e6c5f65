/// Pieces shared by the web pages: escaping, the page frame, its style and the script that keeps it current.
enum HTML {
    /// HTML-escapes text that may come from clients (job names, user names, document names); safe in element
    /// content and in quoted attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A whole page: `title` (escaped here) and `body` (already HTML).
    static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>\(style)</style></head>
        <body><main id="content">\(body)</main>
        <p class="live" id="live">Not connected to the event stream; reload to update.</p>
        <script>\(script)</script></body></html>
        """
    }

    static let style = """
        body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}h1,h2{margin:.4em 0}\
        section.printer{border:1px solid #ccc;border-radius:6px;padding:0 1em 1em;margin-bottom:1.5em}\
        table{border-collapse:collapse;margin:.5em 0}td,th{padding:4px 10px;border-bottom:1px solid #ddd;\
        text-align:left;vertical-align:top}.state-idle{color:#070}.state-processing{color:#06c}\
        .state-stopped{color:#c00}.thumbs img{height:96px;border:1px solid #999;margin:2px;background:#fff}\
        .meter{display:inline-block;width:120px;height:10px;border:1px solid #888;vertical-align:middle}\
        .meter span{display:block;height:100%;background:#555}.live{color:#888;font-size:.85em}\
        pre{background:#f6f6f6;padding:.5em;overflow:auto}
        """

    /// Reloads the page's content whenever the event stream reports a change (EventSource, server-sent events):
    /// the server renders and escapes everything, the script only swaps the fetched `<main>` in.
    static let script = """
        (function(){
          var live=document.getElementById('live'),timer=null;
          function refresh(){timer=null;fetch(location.href,{cache:'no-store'}).then(function(r){return r.text();})
            .then(function(t){var d=new DOMParser().parseFromString(t,'text/html');
              var m=d.getElementById('content');if(m){document.getElementById('content').innerHTML=m.innerHTML;}})
            .catch(function(){});}
          if(!window.EventSource){return;}
          var source=new EventSource('/api/v1/events');
          source.onopen=function(){live.textContent='Live: updates from /api/v1/events.';};
          source.onerror=function(){live.textContent='Event stream lost; retrying.';};
          ['job-created','job-state-changed','job-progress','printer-state-changed','printer-config-changed']
            .forEach(function(kind){source.addEventListener(kind,function(){if(!timer){timer=setTimeout(refresh,250);}});});
        })();
        """
}
