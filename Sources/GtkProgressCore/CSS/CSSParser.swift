/// A component value of CSS Syntax Level 3 (§5, "component value"): a token, a function with its arguments, or a
/// `()`, `[]` or `{}` block with its contents. Not `indirect`: the arrays already hold the nesting, and a token is
/// then stored inline rather than boxed (a sheet has hundreds of thousands of them).
package enum CSSComponent: Equatable, Sendable {
    case token(CSSToken)
    case function(String, [CSSComponent])
    /// `open` is `.openParen`, `.openSquare` or `.openCurly`.
    case block(CSSToken, [CSSComponent])
}

/// One declaration (`name: value !important`). Custom property names keep their case; others are lowercased.
package struct CSSDeclaration: Equatable, Sendable {
    package var name: String
    package var value: [CSSComponent]
    package var important: Bool
}

/// What a stylesheet's text holds for the cascade: style rules (their selectors as written, not yet read), the
/// cascade layers it names and `@import` addresses, with what was left out and why.
package struct ParsedStyleSheet: Sendable {
    package struct StyleRule: Sendable {
        package var prelude: [CSSComponent]
        package var declarations: [CSSDeclaration]
        /// Index into `layers`, or -1 for a rule outside every `@layer` of this sheet.
        package var layer: Int32 = -1
    }
    /// One `@import` whose media list and `supports()` hold for the screen (CSS Cascade 5 §2).
    package struct Import: Sendable, Equatable {
        package var address: String
        /// The layer its sheet goes into (`layer` or `layer(name)`), as a path like `layers`' entries.
        package var layer: [String]?
        /// How many of `layers` were declared before it (`@layer a, b;` may come before `@import`).
        package var layersBefore: Int
    }
    package var rules: [StyleRule] = []
    /// The cascade layers this sheet declares (CSS Cascade 5 §6.4), each once, in the order they first appear:
    /// full paths from the sheet's top (`@layer a { @layer b {} }` gives `["a"]` and `["a", "b"]`). An anonymous
    /// layer's part is `#` and a number, which no identifier can spell, unique within the sheet.
    package var layers: [[String]] = []
    package var imports: [Import] = []
    /// The widths at which the sheet's `@media` and `@import` media lists change their answer
    /// (`CSSMedia.widths(in:)`).
    package var mediaWidths: [Double] = []
    /// Rules left out for nesting deeper than `CSSParser.maximumDepth`.
    package var tooDeep = 0
    /// True when the rule count reached `CSSParser.maximumRules` and the rest was not read.
    package var tooManyRules = false
}

/// CSS Syntax Level 3's parser (§5.3 "Parser entry points"), reading tokens as the tokenizer makes them.
///
/// Error recovery is the specification's: a bad declaration is dropped up to the next `;`, a bad rule up to the
/// end of its block. Bounds against hostile sheets: component values nest at most `maximumDepth` deep (a rule
/// nested deeper is skipped whole, with a stack on the heap, so no depth reaches the thread's stack); at most
/// `maximumRules` style rules are kept.
package struct CSSParser {
    /// Blink limits CSS nesting to a similar depth; real sheets stay under ten.
    package static let maximumDepth = 32
    package static let maximumRules = 100_000

    private var tokenizer: CSSTokenizer
    private var pending: CSSToken?
    /// Where the token `nextToken` last gave, and the one waiting in `pending`, began in the input.
    private var tokenStart = 0
    private var pendingStart = 0
    private let media: CSSMedia
    private var sheet = ParsedStyleSheet()
    /// Set when a component value went past `maximumDepth`; the rule being read is then dropped.
    private var overflowed = false
    /// When set, declarations of other properties are read past without keeping their values: the cascade would
    /// drop them (`CSSCascade.isUsed`), and most of a real sheet is margins and fonts.
    private var keepsProperty: ((String) -> Bool)?
    /// With `keepsProperty`: whether colour declarations are kept (`PageStyleOptions.colours`).
    private var keepsColours = true
    /// The `@layer` block being read: its path and index into `sheet.layers` (-1 outside every layer).
    private var layerPath: [String] = []
    private var layerIndex: Int32 = -1
    private var layerIndices: [[String]: Int32] = [:]
    private var anonymousLayers = 0
    /// Set by the first rule that is not `@charset`, `@import` or an `@layer` statement: an `@import` after it is
    /// invalid (CSS Cascade 5 §2).
    private var importsClosed = false

    private init(tokenizer: CSSTokenizer, media: CSSMedia, keepsColours: Bool = true,
                 keepsProperty: ((String) -> Bool)? = nil) {
        self.tokenizer = tokenizer
        self.media = media
        self.keepsColours = keepsColours
        self.keepsProperty = keepsProperty
    }

    /// §5.3.3 "Parse a stylesheet", keeping the rules for `media` (and of their declarations, those whose
    /// lowercase property name `keepsProperty` accepts).
    package static func parseStyleSheet(_ bytes: [UInt8], media: CSSMedia, keepsColours: Bool = true,
                                        keepsProperty: ((String) -> Bool)? = nil) -> ParsedStyleSheet {
        var parser = CSSParser(tokenizer: CSSTokenizer(bytes: bytes), media: media, keepsColours: keepsColours,
                               keepsProperty: keepsProperty)
        parser.consumeRules(topLevel: true, depth: 0)
        return parser.sheet
    }

    package static func parseStyleSheet(_ text: String, media: CSSMedia) -> ParsedStyleSheet {
        parseStyleSheet(Array(text.utf8), media: media)
    }

    /// §5.3.8 "Parse a list of declarations": a `style` attribute's content.
    package static func parseDeclarations(_ text: String) -> [CSSDeclaration] {
        var parser = CSSParser(tokenizer: CSSTokenizer(text), media: CSSMedia(width: 0))
        return parser.consumeDeclarations(insideBlock: false)
    }

    /// §5.3.1 "Parse a component value list" (selectors and media queries in tests).
    package static func parseComponents(_ text: String) -> [CSSComponent] {
        var parser = CSSParser(tokenizer: CSSTokenizer(text), media: CSSMedia(width: 0))
        var values: [CSSComponent] = []
        while true {
            let token = parser.nextToken()
            if token.kind == .eof { return values }
            values.append(parser.consumeComponent(token, depth: 0))
        }
    }

    // MARK: Tokens

    private mutating func nextToken() -> CSSToken {
        if let token = pending {
            pending = nil
            tokenStart = pendingStart
            return token
        }
        tokenStart = tokenizer.position
        return tokenizer.next()
    }

    private mutating func reconsume(_ token: CSSToken) {
        pending = token
        pendingStart = tokenStart
    }

    // MARK: Rules

    /// §5.4.1 "Consume a list of rules". Inside a block it stops at the block's `}`.
    private mutating func consumeRules(topLevel: Bool, depth: Int) {
        while true {
            let token = nextToken()
            switch token {
            case .eof:
                return
            case .closeCurly where !topLevel:
                return
            case .whitespace:
                continue
            case .cdo, .cdc:
                if topLevel { continue }
                reconsume(token)
                consumeQualifiedRule(depth: depth)
            case .atKeyword(let name):
                consumeAtRule(name.lowercased(), depth: depth, topLevel: topLevel)
            default:
                reconsume(token)
                consumeQualifiedRule(depth: depth)
            }
            if sheet.tooManyRules { return }
        }
    }

    /// §5.4.2 "Consume an at-rule": `@media`, `@supports`, `@layer` and `@import` are read; every other at-rule
    /// is skipped whole.
    private mutating func consumeAtRule(_ name: String, depth: Int, topLevel: Bool) {
        var prelude: [CSSComponent] = []
        overflowed = false
        while true {
            let token = nextToken()
            switch token {
            case .semicolon, .eof:
                if name == "import", topLevel, !importsClosed, !overflowed {
                    readImport(prelude)
                } else if name == "layer", !overflowed, let names = Self.layerNames(prelude) {
                    // CSS Cascade 5 §6.4.2.2: a statement fixes the order of the layers it names.
                    for path in names { _ = declareLayer(layerPath + path) }
                } else if name != "charset" {
                    importsClosed = true
                }
                return
            case .openCurly:
                importsClosed = true
                var layer: [String]?
                let applies: Bool
                switch name {
                case "media":
                    sheet.mediaWidths += CSSMedia.widths(in: prelude)
                    applies = media.matches(queryList: prelude)
                case "supports": applies = CSSSupports.evaluate(prelude) ?? false
                case "layer":
                    // CSS Cascade 5 §6.4.2.1: one name or none (an anonymous layer, unique to this block).
                    let written = prelude.trimmingWhitespace
                    if written.isEmpty {
                        layer = ["#\(anonymousLayers)"]
                        anonymousLayers += 1
                    } else if let names = Self.layerNames(written), names.count == 1 {
                        layer = names[0]
                    }
                    applies = layer != nil
                default: applies = false
                }
                if applies, !overflowed, depth + 1 < Self.maximumDepth {
                    if let layer {
                        let saved = (layerPath, layerIndex)
                        layerPath += layer
                        layerIndex = declareLayer(layerPath)
                        consumeRules(topLevel: false, depth: depth + 1)
                        (layerPath, layerIndex) = saved
                    } else {
                        consumeRules(topLevel: false, depth: depth + 1)
                    }
                } else {
                    if ["media", "supports", "layer"].contains(name), depth + 1 >= Self.maximumDepth { sheet.tooDeep += 1 }
                    skipBlock(closing: .closeCurly)
                }
                return
            default:
                prelude.append(consumeComponent(token, depth: depth + 1))
            }
        }
    }

    /// The layer's index in `sheet.layers`, added when it is the first mention.
    private mutating func declareLayer(_ path: [String]) -> Int32 {
        if let index = layerIndices[path] { return index }
        let index = Int32(sheet.layers.count)
        sheet.layers.append(path)
        layerIndices[path] = index
        return index
    }

    /// CSS Cascade 5 §6.4.2: a comma-separated list of `<layer-name>`s, each one or more identifiers joined by
    /// `.` with no whitespace between; a CSS-wide keyword as one of the identifiers makes the list invalid (nil).
    static func layerNames(_ components: [CSSComponent]) -> [[String]]? {
        var names: [[String]] = []
        for item in components.split(separator: .token(.comma), omittingEmptySubsequences: false) {
            let parts = Array(item).trimmingWhitespace
            var path: [String] = []
            var expectsName = true
            for part in parts {
                switch part {
                case .token(.ident(let word)) where expectsName:
                    let lower = word.lowercased()
                    guard !["initial", "inherit", "unset", "revert", "revert-layer"].contains(lower)
                    else { return nil }
                    path.append(word)
                    expectsName = false
                case .token(.delim(ascii("."))) where !expectsName:
                    expectsName = true
                default:
                    return nil
                }
            }
            guard !path.isEmpty, !expectsName else { return nil }
            names.append(path)
        }
        return names.isEmpty ? nil : names
    }

    /// CSS Cascade 5 §2: `@import <url> [layer | layer(<layer-name>)]? [supports(<condition>)]? <media-list>?`.
    private mutating func readImport(_ prelude: [CSSComponent]) {
        var rest = prelude[...]
        func nextItem() -> CSSComponent? {
            while rest.first?.isWhitespace == true { rest = rest.dropFirst() }
            return rest.first
        }
        var address: String?
        switch nextItem() {
        case .token(.string(let text))?, .token(.url(let text))?:
            address = text
        case .function(let name, let arguments)? where name.lowercased() == "url":
            if case .token(.string(let text))? = arguments.trimmingWhitespace.first { address = text }
        default:
            break
        }
        guard let address else { return }
        rest = rest.dropFirst()
        var layer: [String]?
        switch nextItem() {
        case .token(.ident(let word))? where word.lowercased() == "layer":
            rest = rest.dropFirst()
            layer = ["#\(anonymousLayers)"]
            anonymousLayers += 1
        case .function(let name, let arguments)? where name.lowercased() == "layer":
            rest = rest.dropFirst()
            guard let names = Self.layerNames(arguments), names.count == 1 else { return }
            layer = names[0]
        default:
            break
        }
        if case .function(let name, let arguments)? = nextItem(), name.lowercased() == "supports" {
            rest = rest.dropFirst()
            // A condition, or a bare declaration as `supports(display: flex)` allows.
            let holds = CSSSupports.evaluate(arguments) ?? CSSSupports.evaluate([.block(.openParen, arguments)])
            guard holds == true else { return }
        }
        // An @import whose conditions do not hold declares no layer (w3c/csswg-drafts#6776).
        sheet.mediaWidths += CSSMedia.widths(in: Array(rest))
        guard media.matches(queryList: Array(rest).trimmingWhitespace) else { return }
        sheet.imports.append(ParsedStyleSheet.Import(address: address, layer: layer, layersBefore: sheet.layers.count))
    }

    /// §5.4.3 "Consume a qualified rule": the prelude, then the block read as declarations. When the parser keeps
    /// only some properties, the prelude is read past and read again only if the block kept a declaration: most
    /// rules of a real sheet set margins and fonts, and their selectors would be built for nothing.
    private mutating func consumeQualifiedRule(depth: Int) {
        var prelude: [CSSComponent] = []
        overflowed = false
        importsClosed = true
        let deferred = keepsProperty != nil
        var preludeStart: Int?
        while true {
            let token = nextToken()
            if preludeStart == nil { preludeStart = tokenStart }
            switch token {
            case .eof:
                return  // a parse error: the rule is dropped
            case .openCurly:
                let preludeEnd = tokenStart
                let preludeOverflowed = overflowed
                let declarations = consumeDeclarations(insideBlock: true, depth: depth + 1)
                if overflowed || preludeOverflowed {
                    sheet.tooDeep += 1
                    return
                }
                if sheet.rules.count >= Self.maximumRules {
                    sheet.tooManyRules = true
                    return
                }
                if deferred, !declarations.isEmpty, let preludeStart {
                    prelude = pending == nil ? rereadComponents(preludeStart, before: preludeEnd, depth: depth + 1)
                        : Self.components(tokenizer.input(preludeStart..<preludeEnd), depth: depth + 1)
                }
                sheet.rules.append(ParsedStyleSheet.StyleRule(prelude: prelude, declarations: declarations,
                                                               layer: layerIndex))
                return
            default:
                if deferred {
                    tokenizer.discarding = true
                    skipComponent(token, depth: depth + 1)
                    tokenizer.discarding = false
                } else {
                    prelude.append(consumeComponent(token, depth: depth + 1))
                }
            }
        }
    }

    /// The component values between `start` and `end` read again by this parser's tokenizer, which then goes back
    /// to where it was. `end` is where the token after them began: a token that runs past it (the `{` after the
    /// prelude, with any comment before it) is not theirs.
    private mutating func rereadComponents(_ start: Int, before end: Int, depth: Int) -> [CSSComponent] {
        let resume = tokenizer.position
        tokenizer.seek(to: start)
        defer { tokenizer.seek(to: resume) }
        var values: [CSSComponent] = []
        values.reserveCapacity(16)
        while true {
            let token = nextToken()
            if token.kind == .eof || tokenizer.position > end { break }
            values.append(consumeComponent(token, depth: depth))
        }
        return values
    }

    /// The component values of a prelude read before (with the depth it was read at, which it did not pass).
    private static func components(_ bytes: [UInt8], depth: Int) -> [CSSComponent] {
        var parser = CSSParser(tokenizer: CSSTokenizer(bytes: bytes), media: CSSMedia(width: 0))
        var values: [CSSComponent] = []
        // A prelude is a few components (`div.c > p` is five): room for them at once, not by doubling from one.
        values.reserveCapacity(16)
        while true {
            let token = parser.nextToken()
            if token.kind == .eof { return values }
            values.append(parser.consumeComponent(token, depth: depth))
        }
    }

    // MARK: Declarations

    /// §5.4.5 "Consume a list of declarations". `insideBlock`: stop at the block's `}`.
    private mutating func consumeDeclarations(insideBlock: Bool, depth: Int = 0) -> [CSSDeclaration] {
        var declarations: [CSSDeclaration] = []
        while true {
            // With `keepsProperty`, a declaration's name is read without making it a string: most are properties
            // the cascade ignores, and an ignored name needs only its bytes.
            tokenizer.discarding = keepsProperty != nil && pending == nil
            var token = nextToken()
            tokenizer.discarding = false
            // Set when the name's bytes were found used: `keepsProperty` need not look at it again.
            var nameIsUsed = false
            if case .ident(let written) = token, written.isEmpty {
                let start = tokenizer.nameStart, end = tokenizer.position
                let colours = keepsColours
                if tokenizer.withInput(start..<end, { !CSSCascade.isUsed(asciiName: $0, colours: colours) }) {
                    skipDeclaration(insideBlock: insideBlock, depth: depth)
                    continue
                }
                token = .ident(tokenizer.withInput(start..<end) { String(decoding: $0, as: UTF8.self) })
                nameIsUsed = true
            }
            switch token {
            case .eof:
                return declarations
            case .closeCurly where insideBlock:
                return declarations
            case .whitespace, .semicolon:
                continue
            case .atKeyword:
                // An at-rule inside a style block (none is supported there): skipped up to its `;` or block.
                while true {
                    let next = nextToken()
                    let kind = next.kind
                    if kind == .semicolon || kind == .eof { break }
                    if kind == .closeCurly && insideBlock { reconsume(next); break }
                    if kind == .openCurly { skipBlock(closing: .closeCurly); break }
                    _ = consumeComponent(next, depth: depth + 1)
                }
            case .ident(let name) where !nameIsUsed && keepsProperty.map({ !$0(Self.propertyName(name)) }) ?? false:
                skipDeclaration(insideBlock: insideBlock, depth: depth)
            case .ident(let name):
                var values: [CSSComponent] = []
                values.reserveCapacity(8)
                while true {
                    let next = nextToken()
                    let kind = next.kind
                    if kind == .semicolon || kind == .eof { break }
                    if kind == .closeCurly && insideBlock { reconsume(next); break }
                    values.append(consumeComponent(next, depth: depth + 1))
                }
                if let declaration = Self.declaration(name: name, values) { declarations.append(declaration) }
            default:
                // A parse error: everything up to the next `;` goes.
                while true {
                    let next = nextToken()
                    let kind = next.kind
                    if kind == .semicolon || kind == .eof { break }
                    if kind == .closeCurly && insideBlock { reconsume(next); break }
                    _ = consumeComponent(next, depth: depth + 1)
                }
            }
        }
    }

    /// Reads past a declaration's value, keeping nothing, up to its `;` (or the block's `}`, left to be read).
    private mutating func skipDeclaration(insideBlock: Bool, depth: Int) {
        // Most dropped values are words and numbers (`margin: 0 auto`): their bytes are passed over unread.
        if pending == nil, tokenizer.skipPlainDeclarationValue(insideBlock: insideBlock) { return }
        tokenizer.discarding = true
        defer { tokenizer.discarding = false }
        while true {
            let next = nextToken()
            let kind = next.kind
            if kind == .semicolon || kind == .eof { break }
            if kind == .closeCurly && insideBlock { reconsume(next); break }
            skipComponent(next, depth: depth + 1)
        }
    }

    /// §5.4.6 "Consume a declaration" from its name and the component values after it.
    private static func declaration(name: String, _ values: [CSSComponent]) -> CSSDeclaration? {
        // Bounds into `values`, so the value is copied once, without its whitespace at either end.
        var start = 0
        while start < values.count, values[start].isWhitespace { start += 1 }
        guard start < values.count, values[start].isToken(.colon) else { return nil }
        start += 1
        while start < values.count, values[start].isWhitespace { start += 1 }
        var end = values.count
        while end > start, values[end - 1].isWhitespace { end -= 1 }
        var important = false
        // `!` and `important` (any case) as the last two non-whitespace values.
        if end > start, case .token(.ident(let word)) = values[end - 1], word.utf8.count == 9,
           word.lowercased() == "important" {
            var head = end - 1
            while head > start, values[head - 1].isWhitespace { head -= 1 }
            if head > start, values[head - 1].isDelim(ascii("!")) {
                end = head - 1
                while end > start, values[end - 1].isWhitespace { end -= 1 }
                important = true
            }
        }
        let value = start == 0 && end == values.count ? values : Array(values[start..<end])
        return CSSDeclaration(name: propertyName(name), value: value, important: important)
    }

    /// A property's name as the cascade compares it: lowercased (ASCII case-insensitive), custom properties as
    /// written. Names already in lower case, nearly all of them, are not copied.
    static func propertyName(_ name: String) -> String {
        var name = name
        let keep = name.withUTF8 { bytes -> Bool in
            if bytes.count >= 2 && bytes[0] == ascii("-") && bytes[1] == ascii("-") { return true }
            for byte in bytes where byte >= ascii("A") && byte <= ascii("Z") { return false }
            return true
        }
        return keep ? name : name.lowercased()
    }

    // MARK: Component values

    /// §5.4.7 "Consume a component value". Past `maximumDepth` the block is skipped and `overflowed` set.
    /// `consumeComponent` without keeping what it reads (the same depth bound).
    private mutating func skipComponent(_ token: CSSToken, depth: Int) {
        guard let closing = token.closingKind else { return }
        if depth >= Self.maximumDepth {
            overflowed = true
            skipBlock(closing: closing)
            return
        }
        while true {
            let next = nextToken()
            let kind = next.kind
            if kind == closing || kind == .eof { break }
            skipComponent(next, depth: depth + 1)
        }
    }

    private mutating func consumeComponent(_ token: CSSToken, depth: Int) -> CSSComponent {
        guard let closing = token.closingKind else { return .token(token) }
        if depth >= Self.maximumDepth {
            overflowed = true
            skipBlock(closing: closing)
            return .token(.whitespace)
        }
        var contents: [CSSComponent] = []
        while true {
            let next = nextToken()
            let kind = next.kind
            if kind == closing || kind == .eof { break }
            contents.append(consumeComponent(next, depth: depth + 1))
        }
        if case .function(let name) = token { return .function(name, contents) }
        return .block(token, contents)
    }

    /// Reads past the end of a block whose opening token was just read, keeping nothing. Nested blocks are
    /// matched with a stack on the heap, so 100,000 levels cost memory for 100,000 bytes and no recursion.
    private mutating func skipBlock(closing: CSSToken.Kind) {
        let wasDiscarding = tokenizer.discarding
        tokenizer.discarding = true
        defer { tokenizer.discarding = wasDiscarding }
        var expected: [CSSToken.Kind] = [closing]
        while let want = expected.last {
            let token = nextToken()
            let kind = token.kind
            if kind == .eof { return }
            if kind == want {
                expected.removeLast()
            } else if let closing = token.closingKind {
                expected.append(closing)
            }
        }
    }
}

extension CSSComponent {
    /// Pattern tests that do not copy the component, as `==` against a made-up value does.
    package var isWhitespace: Bool {
        if case .token(.whitespace) = self { return true }
        return false
    }

    package func isToken(_ kind: CSSToken.Kind) -> Bool {
        if case .token(let token) = self { return token.kind == kind }
        return false
    }

    package func isDelim(_ character: UInt8) -> Bool {
        if case .token(.delim(let d)) = self { return d == character }
        return false
    }
}

extension Array where Element == CSSComponent {
    /// Without whitespace at either end.
    package var trimmingWhitespace: [CSSComponent] {
        guard first?.isWhitespace == true || last?.isWhitespace == true else { return self }
        var start = startIndex, end = endIndex
        while start < end, self[start].isWhitespace { start += 1 }
        while end > start, self[end - 1].isWhitespace { end -= 1 }
        return Array(self[start..<end])
    }
}
