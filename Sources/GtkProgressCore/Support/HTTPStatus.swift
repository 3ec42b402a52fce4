import FoundationEssentials

/// Reason phrases for the status line.
package enum HTTPStatus {
    package static func reason(_ code: Int) -> String {
        switch code {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 410: return "Gone"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return code >= 500 ? "Server Error" : "Client Error"
        }
    }

    /// 204 No Content and 205 Reset Content answer "there is nothing to show": a browser keeps the page it shows
    /// and ends the navigation there (<https://html.spec.whatwg.org/multipage/browsing-the-web.html>, "If
    /// response's status is 204 or 205, then … abort these steps").
    package static func keepsPageShown(_ code: Int) -> Bool { code == 204 || code == 205 }

    /// The status line for such an answer from `url`.
    package static func nothingToShow(_ code: Int, from url: URL) -> String {
        let status = "\(code) \(code == 204 ? "No Content" : "Reset Content")"
        return url.isFileURL ? L("This computer sent nothing to show (%@).", status)
            : L("The server at %@ sent nothing to show (%@).", url.host ?? url.absoluteString, status)
    }
}
