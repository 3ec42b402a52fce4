import FoundationEssentials

/// An image of the page (`<img>`, `<picture>`, `<input type=image>`): where it stands in the text, which address
/// to load, what it says when it cannot be shown, and the size the page declares for it.
///
/// In the window's document each image is one U+FFFC OBJECT REPLACEMENT CHARACTER, the character
/// `gtk_text_buffer_insert_pixbuf` puts in a buffer, so swapping it for the picture keeps every character offset
/// (links, anchors, find) where it was. The dump's document has no such character: `[alt]` stands there, as w3m
/// prints it.
package struct PageImage: Equatable, Sendable {
    /// Byte offset of the U+FFFC in `Document.storage.bytes`.
    package var offset: Int
    /// The addresses to try, best first: the one chosen from `srcset` (and a `<picture>`'s sources) for the
    /// window's scale factor, then `src`. Resolved against `<base href>` and the page's address.
    package var candidates: [URL]
    /// The alt text, whitespace collapsed; nil when the image has none (it is then a small placeholder when it
    /// cannot be shown). An empty alt (`alt=""`) marks a decorative image: nothing shows when it fails.
    package var alt: String?
    /// `width` and `height` in CSS pixels, clamped to `largestDimension`; nil when absent or unreadable.
    package var width: Int?
    package var height: Int?
    /// `loading="lazy"`: fetched only when the reader nears it.
    package var lazy: Bool
    /// The link the image stands in, if any (index into `Document.links`).
    package var link: Int?

    /// Dimensions past this are a page's hostile number, not a layout: clamped on parse (HTML's rules for
    /// dimension values allow any size; Dillo refuses images over `IMAGE_MAX_AREA`, 6000 × 6000).
    package static let largestDimension = 6000

    package init(offset: Int, candidates: [URL], alt: String?, width: Int?, height: Int?, lazy: Bool = false,
                 link: Int? = nil) {
        self.offset = offset
        self.candidates = candidates
        self.alt = alt
        self.width = width
        self.height = height
        self.lazy = lazy
        self.link = link
    }

    package var url: URL? { candidates.first }
}

/// What the window can show, for choosing among an image's sources.
package struct ImageSelection: Sendable, Equatable {
    /// Device pixels per CSS pixel (the window's scale factor).
    package var scale: Double
    /// The viewport's width in CSS pixels, for `w` descriptors (with `sizes` read as 100vw) and `media`.
    package var viewportWidth: Int
    /// MIME types the installed image loaders read (`<source type>`).
    package var types: Set<String>

    package init(scale: Double = 1, viewportWidth: Int = 1024,
                 types: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/bmp"]) {
        self.scale = min(max(scale.isFinite ? scale : 1, 0.5), 8)
        self.viewportWidth = min(max(viewportWidth, 1), 100_000)
        self.types = types
    }
}

/// HTML's `srcset` microsyntax and its selection, as far as a page without CSS layout can follow it.
/// <https://html.spec.whatwg.org/multipage/images.html#parsing-a-srcset-attribute>
package enum Srcset {
    package struct Candidate: Equatable, Sendable {
        package var url: String
        /// The density in device pixels per CSS pixel this candidate is for (`2x`), computed for `w` descriptors
        /// from the viewport width.
        package var density: Double
        /// Whether the candidate had a `w` descriptor.
        package var byWidth = false
    }

    /// The candidates of a `srcset`. `w` descriptors are turned into densities with `sizes` read as `100vw`
    /// (the spec's default for a missing `sizes`). Candidates with descriptors the spec calls invalid are
    /// dropped; at most `limit` are kept.
    package static func parse(_ text: String, viewportWidth: Int, limit: Int = 64) -> [Candidate] {
        let scalars = Array(text.unicodeScalars)
        var k = 0
        var result: [Candidate] = []
        func isSpace(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" || s == "\n" || s == "\r" || s == "\u{0C}" }
        while k < scalars.count, result.count < limit {
            while k < scalars.count, isSpace(scalars[k]) || scalars[k] == "," { k += 1 }
            guard k < scalars.count else { break }
            let urlStart = k
            while k < scalars.count, !isSpace(scalars[k]) { k += 1 }
            var url = String(String.UnicodeScalarView(scalars[urlStart..<k]))
            var descriptors: [String] = []
            if url.hasSuffix(",") {
                while url.hasSuffix(",") { url.removeLast() }
            } else {
                // Descriptors up to the next comma outside parentheses.
                var current = ""
                var inParens = false
                while k < scalars.count {
                    let s = scalars[k]
                    k += 1
                    if inParens {
                        if s == ")" { inParens = false }
                        current.unicodeScalars.append(s)
                    } else if s == "," {
                        break
                    } else if isSpace(s) {
                        if !current.isEmpty { descriptors.append(current); current = "" }
                    } else {
                        if s == "(" { inParens = true }
                        current.unicodeScalars.append(s)
                    }
                }
                if !current.isEmpty { descriptors.append(current) }
            }
            guard !url.isEmpty else { continue }
            var density: Double?
            var width: Int?
            var invalid = false
            for descriptor in descriptors {
                guard let unit = descriptor.last else { continue }
                let number = descriptor.dropLast()
                switch unit {
                case "x":
                    guard density == nil, width == nil, let value = Double(number), value.isFinite, value > 0 else {
                        invalid = true
                        break
                    }
                    density = value
                case "w":
                    guard density == nil, width == nil,
                          let value = HTMLInteger.nonNegative(String(number), clampedTo: 0...1_000_000), value > 0,
                          number.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                        invalid = true
                        break
                    }
                    width = value
                case "h":
                    break
                default:
                    invalid = true
                }
            }
            guard !invalid else { continue }
            if let width { density = Double(width) / Double(max(viewportWidth, 1)) }
            result.append(Candidate(url: url, density: density ?? 1, byWidth: width != nil))
        }
        return result
    }

    /// The candidate for a display of `scale`: the smallest density at least `scale`, else the largest there is
    /// (the spec leaves the choice to the user agent; this is what browsers do without network hints).
    package static func choose(_ candidates: [Candidate], scale: Double) -> Candidate? {
        let sorted = candidates.sorted { $0.density < $1.density }
        return sorted.first { $0.density >= scale - 1e-9 } ?? sorted.last
    }

    /// Whether a `<source media>` query holds at `viewportWidth`: only `(min-width: Npx)` and `(max-width: Npx)`,
    /// joined by `and`, are read; any other query is taken as not matching, so the next source or the `<img>`
    /// decides. An absent or empty `media` matches.
    package static func mediaMatches(_ media: String?, viewportWidth: Int) -> Bool {
        guard let media = media?.trimmed().lowercased(), !media.isEmpty, media != "all", media != "screen" else {
            return true
        }
        var text = media
        if text.hasPrefix("screen and ") { text = String(text.dropFirst("screen and ".count)) }
        for part in text.components(separatedBy: " and ") {
            let clause = part.trimmed()
            guard clause.hasPrefix("("), clause.hasSuffix(")") else { return false }
            let inner = clause.dropFirst().dropLast()
            let pieces = inner.split(separator: ":", maxSplits: 1)
            guard pieces.count == 2 else { return false }
            let name = pieces[0].trimmed()
            let value = pieces[1].trimmed()
            guard value.hasSuffix("px"), let pixels = Double(value.dropLast(2)) else { return false }
            switch name {
            case "min-width": if Double(viewportWidth) < pixels { return false }
            case "max-width": if Double(viewportWidth) > pixels { return false }
            default: return false
            }
        }
        return true
    }
}

/// `data:` URLs, decoded in place rather than fetched: RFC 2397 and the Fetch standard's "data: URL processor".
/// <https://fetch.spec.whatwg.org/#data-url-processor>
package enum DataURL {
    /// The MIME type and bytes of a `data:` URL, or nil when it is none or its body is not well formed. Decoding
    /// stops (nil) past `limit` bytes of result.
    package static func decode(_ url: URL, limit: Int) -> (mimeType: String, bytes: [UInt8])? {
        decode(url.absoluteString, limit: limit)
    }

    package static func decode(_ text: String, limit: Int) -> (mimeType: String, bytes: [UInt8])? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 5, String(decoding: utf8[0..<5], as: UTF8.self).lowercased() == "data:",
              let comma = utf8.firstIndex(of: UInt8(ascii: ",")) else { return nil }
        var header = String(decoding: utf8[5..<comma], as: UTF8.self).trimmed()
        var base64 = false
        if header.lowercased().hasSuffix(";base64") {
            base64 = true
            header = String(header.dropLast(7)).trimmed()
        }
        let mimeType = (header.split(separator: ";").first.map { String($0).trimmed().lowercased() } ?? "")
        let body = PercentDecoding.decode(utf8[(comma + 1)...], lenient: true, limit: base64 ? limit * 4 / 3 + 8 : limit)
        guard let body else { return nil }
        let bytes = base64 ? base64Decode(body, limit: limit) : body
        guard let bytes else { return nil }
        return (mimeType.isEmpty ? "text/plain" : mimeType, bytes)
    }

    /// Forgiving base64: ASCII whitespace is skipped, padding optional; any other byte outside the alphabet
    /// makes the body invalid. <https://infra.spec.whatwg.org/#forgiving-base64-decode>
    static func base64Decode(_ input: [UInt8], limit: Int) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(input.count)
        for byte in input {
            switch byte {
            case 0x41...0x5A: values.append(byte - 0x41)
            case 0x61...0x7A: values.append(byte - 0x61 + 26)
            case 0x30...0x39: values.append(byte - 0x30 + 52)
            case 0x2B: values.append(62)
            case 0x2F: values.append(63)
            case 0x09, 0x0A, 0x0C, 0x0D, 0x20, 0x3D: continue
            default: return nil
            }
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var k = 0
        while k + 1 < values.count {
            let a = values[k], b = values[k + 1]
            out.append(a << 2 | b >> 4)
            if k + 2 < values.count {
                let c = values[k + 2]
                out.append((b & 0x0F) << 4 | c >> 2)
                if k + 3 < values.count { out.append((c & 0x03) << 6 | values[k + 3]) }
            }
            if out.count > limit { return nil }
            k += 4
        }
        return out
    }
}
