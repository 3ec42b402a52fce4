/// A `Content-Type` value split into its essence and the parameters that matter here.
/// <https://mimesniff.spec.whatwg.org/#parsing-a-mime-type>, simplified: no quoted-pair escapes.
struct MediaType: Equatable {
    /// "type/subtype", lowercased: "text/html".
    var essence: String
    /// The `charset` parameter as written, without quotes.
    var charset: String?

    init?(_ header: String) {
        let parts = header.split(separator: ";", omittingEmptySubsequences: false)
        let essence = String(parts[0]).trimmingASCIIWhitespace().lowercased()
        let pieces = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty,
              !essence.contains(where: { $0 == " " || $0 == "\t" }) else { return nil }
        self.essence = essence
        for parameter in parts.dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let name = parameter[..<equals].trimmingASCIIWhitespace().lowercased()
            var value = parameter[parameter.index(after: equals)...].trimmingASCIIWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            if name == "charset", charset == nil, !value.isEmpty { charset = value }
        }
    }

    var isHTML: Bool { essence == "text/html" || essence == "application/xhtml+xml" }

    /// Types shown as plain text: anything textual a person may want to read.
    var isText: Bool {
        if essence.hasPrefix("text/") { return true }
        if essence.hasSuffix("+xml") || essence.hasSuffix("+json") { return true }
        return ["application/json", "application/xml", "application/javascript", "application/ecmascript",
                "application/x-javascript", "application/x-sh", "application/x-shellscript"].contains(essence)
    }

    /// Types that say nothing about the content, so the bytes decide.
    var isUninformative: Bool {
        ["application/unknown", "unknown/unknown", "*/*", "application/x-unknown-content-type"].contains(essence)
    }
}
