/// A strict reading of JSON syntax (RFC 8259, <https://www.rfc-editor.org/rfc/rfc8259>) before a curve file is
/// decoded. Foundation on Linux is lenient where a curve's author needs to hear about a mistake: it accepts
/// trailing commas, reads `1e-400` as 0 (and JSONDecoder then fails with no field named), and gives syntax
/// errors without a line. This check finds the first problem, with its line and column, or the field whose
/// number no `Double` can hold.
enum StrictJSON {
    /// The first problem in `bytes`, or nil when they are one well-formed JSON value.
    static func problem(in bytes: [UInt8]) -> CurveFileError.Problem? {
        var reader = Reader(bytes: bytes)
        do {
            reader.skipSpace()
            if reader.atEnd { throw reader.failure("the file is empty") }
            try reader.value(depth: 0)
            reader.skipSpace()
            if !reader.atEnd { throw reader.failure("unexpected \(reader.quotedCurrent) after the end of the JSON value") }
            return nil
        } catch let failure as Reader.Failure {
            switch failure {
            case let .syntax(offset, detail):
                let (line, column) = position(of: offset, in: bytes)
                return .badJSON(line: line, column: column, detail: detail)
            case let .number(field, text, tooLarge):
                return .numberOutOfRange(field: field, text: text, tooLarge: tooLarge)
            }
        } catch {
            return .badJSON(line: nil, column: nil, detail: "\(error)")
        }
    }

    /// Line and column (from 1; the column in characters) of a byte offset.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let offset = min(offset, bytes.count)
        var line = 1, lineStart = 0
        for (index, byte) in bytes[..<offset].enumerated() where byte == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return (line, String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1)
    }

    private struct Reader {
        enum Failure: Error {
            case syntax(offset: Int, detail: String)
            case number(field: String, text: String, tooLarge: Bool)
        }

        let bytes: [UInt8]
        var index = 0
        /// Where the value being read sits: keys and list indices, for `CurveFileError.fieldPath`'s form.
        var path: [String] = []

        /// Deeper nesting than any curve needs is refused before recursion could exhaust the stack.
        static let maxDepth = 64

        init(bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index >= bytes.count }
        var current: UInt8? { atEnd ? nil : bytes[index] }

        /// The character at the reading position, quoted, for messages.
        var quotedCurrent: String {
            guard !atEnd else { return "the end of the file" }
            let character = String(decoding: bytes[index..<min(bytes.count, index + 4)], as: UTF8.self).first ?? "?"
            return "“\(character)”"
        }

        func failure(_ detail: String, at offset: Int? = nil) -> Failure {
            .syntax(offset: offset ?? index, detail: detail)
        }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws {
            guard current == byte else {
                throw failure(atEnd ? "the file ends where \(what) should be" : "expected \(what), found \(quotedCurrent)")
            }
            index += 1
        }

        mutating func value(depth: Int) throws {
            guard depth < Self.maxDepth else { throw failure("nested more than \(Self.maxDepth) levels deep") }
            guard let byte = current else { throw failure("the file ends where a value should be") }
            switch byte {
            case UInt8(ascii: "{"): try object(depth: depth)
            case UInt8(ascii: "["): try array(depth: depth)
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: throw failure("unexpected \(quotedCurrent) where a value should be")
            }
        }

        mutating func object(depth: Int) throws {
            index += 1
            skipSpace()
            if current == UInt8(ascii: "}") { index += 1; return }
            while true {
                skipSpace()
                if current == UInt8(ascii: "}") { throw failure("a comma before “}” with no field after it; remove the comma", at: lastComma) }
                guard current == UInt8(ascii: "\"") else {
                    throw failure(atEnd ? "the file ends inside an object" : "expected a field name in double quotes, found \(quotedCurrent)")
                }
                let key = try string()
                skipSpace()
                try expect(UInt8(ascii: ":"), "“:” after the field name")
                skipSpace()
                path.append(path.isEmpty ? key : "." + key)
                try value(depth: depth + 1)
                path.removeLast()
                skipSpace()
                if current == UInt8(ascii: ",") { lastComma = index; index += 1; continue }
                try expect(UInt8(ascii: "}"), "“,” or “}”")
                return
            }
        }

        mutating func array(depth: Int) throws {
            index += 1
            skipSpace()
            if current == UInt8(ascii: "]") { index += 1; return }
            var count = 0
            while true {
                skipSpace()
                if current == UInt8(ascii: "]") { throw failure("a comma before “]” with no value after it; remove the comma", at: lastComma) }
                path.append("[\(count)]")
                try value(depth: depth + 1)
                path.removeLast()
                count += 1
                skipSpace()
                if current == UInt8(ascii: ",") { lastComma = index; index += 1; continue }
                try expect(UInt8(ascii: "]"), "“,” or “]”")
                return
            }
        }

        /// Where the last comma was, to point at a trailing one.
        var lastComma = 0

        mutating func string() throws -> String {
            let start = index
            index += 1
            var text: [UInt8] = []
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = current else { break }
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                    case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        text.append(UInt8(ascii: " "))
                    case UInt8(ascii: "u"):
                        let digits = bytes[min(index + 1, bytes.count)..<min(index + 5, bytes.count)]
                        guard digits.count == 4, digits.allSatisfy({ Self.isHexDigit($0) }) else {
                            throw failure("“\\u” must be followed by four hexadecimal digits", at: index - 1)
                        }
                        text.append(UInt8(ascii: "?"))
                        index += 4
                    default:
                        throw failure("“\\\(Unicode.Scalar(escaped))” is not an escape JSON knows", at: index - 1)
                    }
                    index += 1
                case 0..<0x20:
                    throw failure("a line break or control character inside a string; strings must end on their line")
                default:
                    text.append(byte)
                    index += 1
                }
            }
            throw failure("the string that starts here is never closed with “\"”", at: start)
        }

        mutating func number() throws {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
                if let next = current, Self.isDigit(next) { throw failure("a number cannot start with 0", at: start) }
            } else {
                try digits(start)
            }
            if current == UInt8(ascii: ".") { index += 1; try digits(start) }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                try digits(start)
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            let value = Double(text) ?? .infinity
            let mantissaIsZero = text.prefix { $0 != "e" && $0 != "E" }.allSatisfy { $0 == "0" || $0 == "." || $0 == "-" }
            if !value.isFinite || (value == 0 && !mantissaIsZero) {
                throw Failure.number(field: path.joined(), text: text, tooLarge: !value.isFinite)
            }
        }

        mutating func digits(_ start: Int) throws {
            guard let first = current, Self.isDigit(first) else {
                throw failure("not a number: a digit must follow “\(String(decoding: bytes[start..<index], as: UTF8.self))”")
            }
            while let byte = current, Self.isDigit(byte) { index += 1 }
        }

        mutating func literal(_ word: String) throws {
            let start = index
            for expected in word.utf8 {
                guard current == expected else { throw failure("unexpected \(quotedCurrentWord(from: start)); did you mean \(word)?", at: start) }
                index += 1
            }
        }

        func quotedCurrentWord(from start: Int) -> String {
            let end = bytes[start...].firstIndex { !(($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A)) } ?? bytes.count
            return "“" + String(decoding: bytes[start..<max(end, start + 1)], as: UTF8.self) + "”"
        }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        static func isHexDigit(_ byte: UInt8) -> Bool {
            isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
        }
    }
}
