import Foundation
import PrinterCore

/// Pieces shared by the web pages: escaping, the page frame with its header, and small formatting helpers.
///
/// Every page is rendered here on the server, complete and readable without JavaScript; the script
/// (``WebScript``) only keeps the parts marked `data-live` current from the event stream, sends the controls' JSON
/// API calls and adds keyboard navigation.
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

    /// What the event stream should refresh a page for: every event, one printer's, or one job's.
    enum LiveScope {
        case all
        case printer(String)
        case job(Int)

        var attributes: String {
            switch self {
            case .all: " data-live-scope=\"all\""
            case .printer(let name): " data-live-scope=\"printer\" data-live-printer=\"\(escape(name))\""
            case .job(let id): " data-live-scope=\"job\" data-live-job=\"\(id)\""
            }
        }
    }

    /// A whole page: `title` (escaped here) and `body` (already HTML), with the header's navigation.
    static func page(title: String, body: String, live: LiveScope = .all) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <link rel="stylesheet" href="\(WebAssets.stylePath)">
        <script src="\(WebAssets.scriptPath)" defer></script></head>
        <body\(live.attributes)><a class="skip" href="#content">Skip to the content</a>
        <header class="top"><a class="brand" href="/">vprinter</a><nav aria-label="Main">\
        <a href="/#printers">Printers</a> <a href="/#jobs">Jobs</a> <a href="/requests">Requests</a> \
        <a href="/api/v1/printers">API</a></nav></header>
        <main id="content"><p class="result" id="result" role="status" aria-live="polite"></p>\(body)</main>
        <footer><p class="live" id="live" role="status">Live updates need JavaScript; reload to update.</p></footer>
        </body></html>
        """
    }

    /// A control area: disabled until the script enables it (the controls call the JSON API from the script),
    /// with a note saying so for a browser without JavaScript.
    static func controls(_ inner: String, label: String) -> String {
        "<fieldset class=\"controls\" data-needs-js disabled><legend>\(escape(label))</legend>"
            + "<p class=\"no-js-note\">These controls call the JSON API and need JavaScript.</p>\(inner)</fieldset>"
    }

    /// A button that makes one or more JSON API calls (`METHOD PATH`, separated by ` ; `), each with the same
    /// JSON body when given; `confirm` is asked first. A `standalone` button (outside ``controls``) is disabled
    /// until the script enables it.
    static func callButton(
        _ label: String, call: String, body: String? = nil, confirm: String? = nil, id: String? = nil,
        ariaLabel: String? = nil, pressed: Bool? = nil, disabledReason: String? = nil, standalone: Bool = false
    ) -> String {
        var html = "<button type=\"button\""
        if let id { html += " id=\"\(escape(id))\"" }
        if let ariaLabel { html += " aria-label=\"\(escape(ariaLabel))\"" }
        if standalone && disabledReason == nil { html += " data-needs-js disabled title=\"needs JavaScript\"" }
        html += " data-call=\"\(escape(call))\""
        if let body { html += " data-body=\"\(escape(body))\"" }
        if let confirm { html += " data-confirm=\"\(escape(confirm))\"" }
        if let pressed { html += " aria-pressed=\"\(pressed)\"" }
        if let disabledReason {
            html += " disabled data-disabled-reason=\"\(escape(disabledReason))\" title=\"\(escape(disabledReason))\""
        }
        html += ">\(escape(label))</button>"
        if let disabledReason { html += " <span class=\"why\">\(escape(disabledReason))</span>" }
        return html
    }

    /// A JSON string literal of `text`, for data-body attributes (escaped again by ``callButton``).
    static func jsonString(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data()
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    /// A JSON value as compact text (sorted keys), for showing ticket values.
    static func jsonText(_ value: Any?) -> String {
        guard let value else { return "" }
        if let text = value as? String { return text }
        guard JSONSerialization.isValidJSONObject([value]),
            let data = try? JSONSerialization.data(
                withJSONObject: [value], options: [.sortedKeys, .withoutEscapingSlashes])
        else { return "\(value)" }
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    /// Percent-encodes a query value or path segment (RFC 3986 section 2.1): everything but unreserved characters.
    static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80, character.isLetter || character.isNumber || "-._~".contains(character) {
                out.append(character)
            } else {
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// A printer-state badge: the keyword in its color, with the words for it.
    static func stateBadge(_ state: String) -> String {
        "<span class=\"badge state-\(escape(state))\">\(escape(state))</span>"
    }

    /// A count with thousands separators (10,000).
    static func count(_ number: Int) -> String {
        let digits = String(number)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0, digit != "-" { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
