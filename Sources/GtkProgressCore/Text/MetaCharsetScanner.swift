extension CharsetDecoder {
    /// Looks for `<meta charset=…>` or `<meta http-equiv="Content-Type" content="…; charset=…">` the way the
    /// HTML prescan does (<https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding>):
    /// comments and other tags are skipped, attributes are parsed properly, so a `charset` inside a comment or in
    /// some other tag's attribute does not count. A declared UTF-16 means UTF-8, since a page that could be
    /// read as ASCII to find the declaration is not UTF-16.
    static func prescanMeta(_ bytes: ArraySlice<UInt8>) -> TextEncoding? {
        var scanner = MetaCharsetScanner(bytes: Array(bytes))
        return scanner.scan()
    }
}

/// The state of one prescan over the first bytes of a document.
struct MetaCharsetScanner {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func scan() -> TextEncoding? {
        while position < bytes.count {
            if matches("<!--") {
                guard let end = find("-->", from: position + 2) else { return nil }
                position = end + 3
                continue
            }
            if matchesIgnoringCase("<meta"), position + 5 < bytes.count,
               isSpace(bytes[position + 5]) || bytes[position + 5] == UInt8(ascii: "/") {
                position += 5
                if let encoding = scanMetaAttributes() { return encoding }
                continue
            }
            if matches("<") && position + 1 < bytes.count
                && (isLetter(bytes[position + 1])
                    || (bytes[position + 1] == UInt8(ascii: "/") && position + 2 < bytes.count
                        && isLetter(bytes[position + 2]))) {
                while position < bytes.count && !isSpace(bytes[position]) && bytes[position] != UInt8(ascii: ">") {
                    position += 1
                }
                while nextAttribute() != nil {}
                continue
            }
            if matches("<!") || matches("</") || matches("<?") {
                guard let end = find(">", from: position + 2) else { return nil }
                position = end + 1
                continue
            }
            position += 1
        }
        return nil
    }

    /// The attributes of one `<meta …>`: an encoding if they declare one.
    private mutating func scanMetaAttributes() -> TextEncoding? {
        var seen: Set<String> = []
        var gotPragma = false
        var needPragma: Bool? = nil
        var charset: String? = nil
        while let (name, value) = nextAttribute() {
            guard seen.insert(name).inserted else { continue }
            switch name {
            case "http-equiv":
                if value == "content-type" { gotPragma = true }
            case "content":
                if charset == nil, let found = MetaCharsetScanner.charset(inContent: value) {
                    charset = found
                    needPragma = true
                }
            case "charset":
                charset = value
                needPragma = false
            default:
                break
            }
        }
        guard let need = needPragma, let label = charset, !need || gotPragma,
              let encoding = TextEncoding(label: label) else { return nil }
        if encoding == .utf16LE || encoding == .utf16BE { return .utf8 }
        return encoding
    }

    /// <https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element>
    static func charset(inContent content: String) -> String? {
        let characters = Array(content.utf8)
        var index = 0
        let word = Array("charset".utf8)
        while index + word.count <= characters.count {
            guard characters[index..<index + word.count].elementsEqual(word, by: { lowered($0) == $1 }) else {
                index += 1
                continue
            }
            var cursor = index + word.count
            while cursor < characters.count && isSpace(characters[cursor]) { cursor += 1 }
            guard cursor < characters.count, characters[cursor] == UInt8(ascii: "=") else {
                index = cursor
                continue
            }
            cursor += 1
            while cursor < characters.count && isSpace(characters[cursor]) { cursor += 1 }
            guard cursor < characters.count else { return nil }
            let first = characters[cursor]
            if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
                guard let close = characters[(cursor + 1)...].firstIndex(of: first) else { return nil }
                return String(decoding: characters[(cursor + 1)..<close], as: UTF8.self)
            }
            var end = cursor
            while end < characters.count && !isSpace(characters[end]) && characters[end] != UInt8(ascii: ";") {
                end += 1
            }
            return String(decoding: characters[cursor..<end], as: UTF8.self)
        }
        return nil
    }

    /// The next attribute of the current tag, names and values lowercased; nil at the tag's end.
    private mutating func nextAttribute() -> (String, String)? {
        while position < bytes.count && (isSpace(bytes[position]) || bytes[position] == UInt8(ascii: "/")) {
            position += 1
        }
        guard position < bytes.count, bytes[position] != UInt8(ascii: ">") else { return nil }
        var name: [UInt8] = []
        var value: [UInt8] = []
        nameLoop: while true {
            guard position < bytes.count else { return nil }
            let byte = bytes[position]
            if byte == UInt8(ascii: "=") && !name.isEmpty {
                position += 1
                break nameLoop
            }
            if isSpace(byte) {
                while position < bytes.count && isSpace(bytes[position]) { position += 1 }
                guard position < bytes.count else { return nil }
                if bytes[position] != UInt8(ascii: "=") { return (string(name), "") }
                position += 1
                break nameLoop
            }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") { return (string(name), "") }
            name.append(MetaCharsetScanner.lowered(byte))
            position += 1
        }
        while position < bytes.count && isSpace(bytes[position]) { position += 1 }
        guard position < bytes.count else { return nil }
        let first = bytes[position]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            position += 1
            while position < bytes.count {
                if bytes[position] == first {
                    position += 1
                    return (string(name), string(value))
                }
                value.append(MetaCharsetScanner.lowered(bytes[position]))
                position += 1
            }
            return nil
        }
        if first == UInt8(ascii: ">") { return (string(name), "") }
        while position < bytes.count && !isSpace(bytes[position]) && bytes[position] != UInt8(ascii: ">") {
            value.append(MetaCharsetScanner.lowered(bytes[position]))
            position += 1
        }
        return position < bytes.count ? (string(name), string(value)) : nil
    }

    private func matches(_ text: String) -> Bool {
        let pattern = Array(text.utf8)
        return position + pattern.count <= bytes.count && bytes[position..<position + pattern.count].elementsEqual(pattern)
    }

    private func matchesIgnoringCase(_ text: String) -> Bool {
        let pattern = Array(text.utf8)
        return position + pattern.count <= bytes.count
            && bytes[position..<position + pattern.count].elementsEqual(pattern, by: { MetaCharsetScanner.lowered($0) == $1 })
    }

    private func find(_ text: String, from start: Int) -> Int? {
        let pattern = Array(text.utf8)
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index..<index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    private func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    private func isSpace(_ byte: UInt8) -> Bool { MetaCharsetScanner.isSpace(byte) }

    private func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(MetaCharsetScanner.lowered(byte))
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == 0x20
    }

    static func lowered(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte
    }
}
