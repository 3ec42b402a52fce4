/// An element as selectors see it. The document's elements (gumbo's) and the tests' trees conform.
package protocol CSSElement {
    /// The tag name, lowercase for HTML elements.
    var localName: String { get }
    func isNamed(_ lowercasedName: String) -> Bool
    var elementID: String? { get }
    func hasClass(_ name: String) -> Bool
    /// Each class once per occurrence in `class`, for the rule index.
    var classNames: [String] { get }
    func attributeValue(_ lowercasedName: String) -> String?
    /// An `a` or `area` element with an `href` (`:link`, `:any-link`).
    var isLink: Bool { get }
    var parentElement: Self? { get }
    var previousSiblingElement: Self? { get }
    var nextSiblingElement: Self? { get }
    /// No element children and no text (Selectors 3 §6.6.5.10 `:empty`).
    var hasNoChildren: Bool { get }
    /// False when the element's siblings are not known: then no compound reading its position matches it, even
    /// under `:not()`, so a rule never misapplies.
    var hasKnownPosition: Bool { get }
    /// The element's place among its siblings from the first (1) and from the last, when the element knows it
    /// without walking them; nil otherwise.
    var positionAmongSiblings: Int? { get }
    var positionFromEnd: Int? { get }
    /// The nearest earlier sibling that may answer a compound reading no position and no children otherwise than
    /// this one does: past a run of alike siblings (`previousSiblingElement` where none is known), so that `h2 ~ p`
    /// over a run of 100,000 folded paragraphs is not tested against each earlier one in turn.
    var previousUnlikeSibling: Self? { get }
    /// False when the element's id, classes and attributes are not all known (the HTML prefilter dropped some):
    /// then no compound that reads any of them matches it, even under `:not()`, so a rule never misapplies.
    var attributesAreKnown: Bool { get }
    var typeHash: UInt32 { get }
    var idHash: UInt32? { get }
    func forEachClassHash(_ body: (UInt32) -> Void)
}

extension CSSElement {
    /// `CSSAncestorFilter.nameHash` of the type, the id and each class: how the rule set finds an element's
    /// rules without making strings. Elements read from C strings answer from their bytes.
    package var typeHash: UInt32 { CSSAncestorFilter.nameHash(localName.utf8) }
    package var idHash: UInt32? { elementID.map { CSSAncestorFilter.nameHash($0.utf8) } }
    package func forEachClassHash(_ body: (UInt32) -> Void) {
        for name in classNames { body(CSSAncestorFilter.nameHash(name.utf8)) }
    }
    package var hasKnownPosition: Bool { true }
    package var positionAmongSiblings: Int? { nil }
    package var positionFromEnd: Int? { nil }
    package var previousUnlikeSibling: Self? { previousSiblingElement }
    package var attributesAreKnown: Bool { true }
    package var isLink: Bool { (isNamed("a") || isNamed("area")) && attributeValue("href") != nil }
}

/// A selector of Selectors Level 3 (<https://www.w3.org/TR/selectors-3/>), with `:not()` and `:is()` taking lists
/// of compound selectors. Parsing fails (nil) on anything else — a namespace, an unknown pseudo-class such as
/// `:has()`, a pseudo-element other than `::before` and `::after` — so such a rule never applies.
package struct CSSSelector: Sendable, Equatable {
    package enum Combinator: Sendable, Equatable { case descendant, child, nextSibling, subsequentSibling }

    package enum AttributeMatch: Sendable, Equatable {
        case exists, equals, includes, dashMatch, prefix, suffix, substring
    }

    /// Not `indirect`: `:not()` and `:is()` hold their compounds in arrays, which already box the nesting, and an
    /// indirect case costs an allocation for every simple selector read.
    package enum Simple: Sendable, Equatable {
        case type(String)
        case id(String)
        case className(String)
        case attribute(name: String, match: AttributeMatch, value: String, caseInsensitive: Bool)
        case firstChild, lastChild, onlyChild, root, empty
        /// `:link` and `:any-link`: an `a` or `area` with an `href` (HTML § 4.16.3 "Pseudo-classes"). No link is
        /// `:visited` for author styles; the view marks visited links itself.
        case anyLink
        /// A state this view never puts an element in for author styles: the user-action pseudo-classes
        /// (`:hover`, `:active`, `:focus`, `:focus-within`, `:focus-visible`; Selectors 4 § 9), `:visited` and
        /// `:target`. Valid, so a list holding one (`a, a:hover`) still applies to the others; never matching.
        case never
        case nthChild(a: Int, b: Int)
        case nthLastChild(a: Int, b: Int)
        case not([Compound])
        case `is`([Compound])
    }

    package struct Compound: Sendable, Equatable {
        package var simples: [Simple] = []
    }

    package enum PseudoElement: Sendable, Equatable { case before, after }

    /// Rightmost compound first; `combinators[i]` joins `compounds[i]` to `compounds[i + 1]` (its left).
    package var compounds: [Compound]
    package var combinators: [Combinator]
    package var pseudoElement: PseudoElement?
    /// (ids, classes + attributes + pseudo-classes, types) packed as a × 2²⁰ + b × 2¹⁰ + c.
    package var specificity: Int

    /// Selectors longer than this are refused (Blink and WebKit limit lengths similarly); real ones have a few.
    package static let maximumCompounds = 64
    package static let maximumSimples = 64

    // MARK: Parsing

    /// A selector list; nil when any selector in it is invalid or unsupported (Selectors 3 §5: one bad selector
    /// makes the whole group invalid).
    package static func parseList(_ components: [CSSComponent]) -> [CSSSelector]? {
        var selectors: [CSSSelector] = []
        var start = 0
        for index in components.indices where components[index].isToken(.comma) {
            guard let selector = parse(components, start..<index) else { return nil }
            selectors.append(selector)
            start = index + 1
        }
        guard let last = parse(components, start..<components.count) else { return nil }
        selectors.append(last)
        return selectors
    }

    package static func parse(_ text: String) -> [CSSSelector]? { parseList(CSSParser.parseComponents(text)) }

    /// Whether a selector list `parseList` refused has a selector past the length limits (`maximumCompounds`
    /// compounds, or a compound of more than twice `maximumSimples` components: `.a` is two), so the page can be
    /// told why its rule was left out. Read only for refused lists; it never decides a match.
    package static func exceedsLengthLimits(_ components: [CSSComponent]) -> Bool {
        var compounds = 1
        var inCompound = 0
        var betweenCompounds = true
        for component in components {
            switch component {
            case .token(.comma):
                compounds = 1
                inCompound = 0
                betweenCompounds = true
            case .token(.whitespace), .token(.delim(ascii(">"))), .token(.delim(ascii("+"))),
                 .token(.delim(ascii("~"))):
                betweenCompounds = true
            default:
                if betweenCompounds, inCompound > 0 {
                    compounds += 1
                    inCompound = 0
                }
                betweenCompounds = false
                inCompound += 1
            }
            if compounds > maximumCompounds || inCompound > 2 * maximumSimples { return true }
        }
        return false
    }

    static func parse(_ components: [CSSComponent]) -> CSSSelector? { parse(components, 0..<components.count) }

    /// The selector in `components[range]`, read in place (a list's selectors are not copied out of it).
    static func parse(_ parts: [CSSComponent], _ range: Range<Int>) -> CSSSelector? {
        var index = range.lowerBound
        var end = range.upperBound
        while index < end, parts[index].isWhitespace { index += 1 }
        while end > index, parts[end - 1].isWhitespace { end -= 1 }
        guard index < end else { return nil }
        // Room for a typical selector's compounds at once (`div.body p a`), not grown from one.
        var compounds: [Compound] = []
        compounds.reserveCapacity(4)
        var combinators: [Combinator] = []
        var pseudoElement: PseudoElement?
        var pendingCombinator: Combinator?
        while index < end {
            if pseudoElement != nil { return nil }  // nothing may follow a pseudo-element
            if !compounds.isEmpty {
                // A combinator: whitespace, `>`, `+`, `~`, with whitespace around it.
                var sawSpace = false
                while index < end, parts[index].isWhitespace { sawSpace = true; index += 1 }
                var combinator: Combinator? = sawSpace ? .descendant : nil
                if index < end, case .token(.delim(let d)) = parts[index] {
                    switch d {
                    case ascii(">"): combinator = .child
                    case ascii("+"): combinator = .nextSibling
                    case ascii("~"): combinator = .subsequentSibling
                    default: break
                    }
                    if combinator != .descendant || !sawSpace, [ascii(">"), ascii("+"), ascii("~")].contains(d) {
                        index += 1
                        while index < end, parts[index].isWhitespace { index += 1 }
                    }
                }
                guard let found = combinator, index < end else { return nil }
                pendingCombinator = found
            }
            guard let (compound, element, next) = parseCompound(parts, from: index, end: end, allowPseudoElement: true),
                  !compound.simples.isEmpty || element != nil else { return nil }
            if let combinator = pendingCombinator { combinators.append(combinator) }
            compounds.append(compound)
            pseudoElement = element
            index = next
            guard compounds.count <= maximumCompounds else { return nil }
        }
        guard !compounds.isEmpty else { return nil }
        compounds.reverse()
        combinators.reverse()
        var selector = CSSSelector(compounds: compounds, combinators: combinators,
                                   pseudoElement: pseudoElement, specificity: 0)
        selector.specificity = selector.compounds.reduce(pseudoElement == nil ? 0 : 1) { $0 + specificity(of: $1) }
        return selector
    }

    /// A compound selector starting at `index`: its simple selectors, a pseudo-element, and where it ended.
    private static func parseCompound(_ parts: [CSSComponent], from start: Int, end: Int? = nil,
                                      allowPseudoElement: Bool) -> (Compound, PseudoElement?, Int)? {
        let count = end ?? parts.count
        var compound = Compound()
        compound.simples.reserveCapacity(2)  // most compounds are one or two simple selectors
        var index = start
        var pseudoElement: PseudoElement?
        func token(_ offset: Int) -> CSSToken? {
            guard index + offset < count, case .token(let token) = parts[index + offset] else { return nil }
            return token
        }
        func isDelim(_ offset: Int, _ character: UInt8) -> Bool {
            index + offset < count && parts[index + offset].isDelim(character)
        }
        // A type or universal selector may only come first.
        if case .ident(let name)? = token(0) {
            if isDelim(1, ascii("|")) { return nil }
            // Lowercased only when it has an upper-case letter or non-ASCII (a copy is made either way).
            let lower = name.utf8.contains { ($0 >= ascii("A") && $0 <= ascii("Z")) || $0 >= 0x80 } ? name.lowercased() : name
            compound.simples.append(.type(lower))
            index += 1
        } else if isDelim(0, ascii("*")) {
            if isDelim(1, ascii("|")) { return nil }
            index += 1
            if index == count || !isSimpleStart(parts[index]) {
                compound.simples.append(.is([]))  // `*` alone: a marker that matches every element
            }
        } else if isDelim(0, ascii("|")) {
            return nil
        }
        while index < count {
            if pseudoElement != nil { return nil }
            switch parts[index] {
            case .token(.hash(let name, let isID)):
                guard isID else { return nil }
                compound.simples.append(.id(name))
                index += 1
            case .token(.delim(ascii("."))):
                guard case .ident(let name)? = token(1) else { return nil }
                compound.simples.append(.className(name))
                index += 2
            case .block(.openSquare, let contents):
                guard let attribute = parseAttribute(contents) else { return nil }
                compound.simples.append(attribute)
                index += 1
            case .token(.colon):
                if index + 1 < count, parts[index + 1].isToken(.colon) {
                    guard allowPseudoElement, case .ident(let name)? = token(2) else { return nil }
                    switch name.lowercased() {
                    case "before": pseudoElement = .before
                    case "after": pseudoElement = .after
                    default: return nil
                    }
                    index += 3
                    continue
                }
                guard index + 1 < count else { return nil }
                switch parts[index + 1] {
                case .token(.ident(let name)):
                    switch name.lowercased() {
                    case "first-child": compound.simples.append(.firstChild)
                    case "last-child": compound.simples.append(.lastChild)
                    case "only-child": compound.simples.append(.onlyChild)
                    case "root": compound.simples.append(.root)
                    case "empty": compound.simples.append(.empty)
                    case "link", "any-link": compound.simples.append(.anyLink)
                    case "visited", "hover", "active", "focus", "focus-within", "focus-visible", "target":
                        compound.simples.append(.never)
                    // CSS 2's one-colon forms of the two pseudo-elements.
                    case "before" where allowPseudoElement: pseudoElement = .before
                    case "after" where allowPseudoElement: pseudoElement = .after
                    default: return nil
                    }
                case .function(let name, let arguments):
                    switch name.lowercased() {
                    case "nth-child", "nth-last-child":
                        guard let (a, b) = parseAnPlusB(arguments) else { return nil }
                        compound.simples.append(name.lowercased() == "nth-child" ? .nthChild(a: a, b: b)
                                                : .nthLastChild(a: a, b: b))
                    case "not", "is", "matches", "where":
                        guard let list = parseCompoundList(arguments) else { return nil }
                        compound.simples.append(name.lowercased() == "not" ? .not(list) : .is(list))
                    default:
                        return nil
                    }
                default:
                    return nil
                }
                index += 2
            default:
                guard compound.simples.count <= maximumSimples else { return nil }
                return (compound, pseudoElement, index)
            }
            guard compound.simples.count <= maximumSimples else { return nil }
        }
        return (compound, pseudoElement, index)
    }

    private static func isSimpleStart(_ component: CSSComponent) -> Bool {
        switch component {
        case .token(.hash), .token(.delim(ascii("."))), .block(.openSquare, _), .token(.colon): return true
        default: return false
        }
    }

    /// The "simple arguments" of `:not()` and `:is()`: a list of compound selectors, no combinators.
    private static func parseCompoundList(_ arguments: [CSSComponent]) -> [Compound]? {
        var list: [Compound] = []
        var current: [CSSComponent] = []
        func flush() -> Bool {
            let parts = current.trimmingWhitespace
            guard !parts.isEmpty, let (compound, element, end) = parseCompound(parts, from: 0, allowPseudoElement: false),
                  element == nil, end == parts.count, !compound.simples.isEmpty else { return false }
            list.append(compound)
            current = []
            return true
        }
        for argument in arguments {
            if argument.isToken(.comma) {
                guard flush() else { return nil }
            } else {
                current.append(argument)
            }
        }
        guard flush(), list.count <= maximumSimples else { return nil }
        return list
    }

    /// `[name]`, `[name=value]` and the other matchers, with an optional `i` or `s` flag (Selectors 4).
    private static func parseAttribute(_ contents: [CSSComponent]) -> Simple? {
        let parts = contents.filter { !$0.isWhitespace }
        guard case .token(.ident(let rawName))? = parts.first else { return nil }
        let name = rawName.lowercased()
        if parts.count == 1 { return .attribute(name: name, match: .exists, value: "", caseInsensitive: false) }
        var index = 1
        let match: AttributeMatch
        switch parts[index] {
        case .token(.delim(ascii("="))):
            match = .equals
            index += 1
        case .token(.delim(let d)):
            guard index + 1 < parts.count, parts[index + 1].isDelim(ascii("=")) else { return nil }
            switch d {
            case ascii("~"): match = .includes
            case ascii("|"): match = .dashMatch
            case ascii("^"): match = .prefix
            case ascii("$"): match = .suffix
            case ascii("*"): match = .substring
            default: return nil
            }
            index += 2
        default:
            return nil
        }
        guard index < parts.count else { return nil }
        let value: String
        switch parts[index] {
        case .token(.ident(let text)), .token(.string(let text)): value = text
        default: return nil
        }
        index += 1
        var caseInsensitive = false
        if index < parts.count {
            guard index + 1 == parts.count, case .token(.ident(let flag)) = parts[index],
                  ["i", "s"].contains(flag.lowercased()) else { return nil }
            caseInsensitive = flag.lowercased() == "i"
        }
        return .attribute(name: name, match: match, value: value, caseInsensitive: caseInsensitive)
    }

    /// CSS Syntax 3 §6 "The An+B microsyntax", read from the argument's text with its whitespace removed.
    static func parseAnPlusB(_ arguments: [CSSComponent]) -> (Int, Int)? {
        var text = ""
        for argument in arguments {
            switch argument {
            case .token(.whitespace): continue
            case .token(.ident(let word)): text += word.lowercased()
            case .token(.number(_, true, let representation)): text += representation
            case .token(.dimension(_, true, let representation, let unit)): text += representation + unit.lowercased()
            case .token(.delim(ascii("+"))): text += "+"
            case .token(.delim(ascii("-"))): text += "-"
            default: return nil
            }
        }
        if text == "odd" { return (2, 1) }
        if text == "even" { return (2, 0) }
        func integer(_ s: Substring) -> Int? {
            guard s.count <= 9 else { return nil }  // keeps the arithmetic far from overflow
            return Int(s)
        }
        guard let n = text.firstIndex(of: "n") else {
            return integer(text[...]).map { (0, $0) }
        }
        let aText = text[..<n]
        let a: Int
        switch aText {
        case "", "+": a = 1
        case "-": a = -1
        default:
            guard let value = integer(aText.hasPrefix("+") ? aText.dropFirst() : aText) else { return nil }
            a = value
        }
        let bText = text[text.index(after: n)...]
        if bText.isEmpty { return (a, 0) }
        guard bText.first == "+" || bText.first == "-", bText.count > 1,
              let value = integer(bText.dropFirst()), bText.dropFirst().allSatisfy(\.isASCIIDigitCharacter) else {
            return nil
        }
        return (a, bText.first == "-" ? -value : value)
    }

    /// Selectors 3 §9; `:not()` and `:is()` count as their most specific argument (Selectors 4 §16).
    private static func specificity(of compound: Compound) -> Int {
        compound.simples.reduce(0) { total, simple in
            switch simple {
            case .id: return total + (1 << 20)
            case .type: return total + 1
            case .not(let list), .is(let list):
                return total + (list.map(specificity(of:)).max() ?? 0)
            default: return total + (1 << 10)
            }
        }
    }

    // MARK: Matching

    /// Whether `element` is the subject of this selector, walking right to left (as browsers do).
    package func matches<E: CSSElement>(_ element: E) -> Bool {
        guard Self.matches(compounds[0], element) else { return false }
        return matchRest(from: 1, element) == .matches
    }

    /// WebKit's SelectorChecker results: a failure that no higher ancestor (or earlier sibling) can turn into a
    /// match ends the search there, so a long selector costs time linear in the depth, not exponential.
    private enum Outcome { case matches, failsLocally, failsAllSiblings, failsCompletely }

    private func matchRest<E: CSSElement>(from index: Int, _ element: E) -> Outcome {
        guard index < compounds.count else { return .matches }
        let compound = compounds[index]
        func next(_ candidate: E) -> Outcome {
            Self.matches(compound, candidate) ? matchRest(from: index + 1, candidate) : .failsLocally
        }
        switch combinators[index - 1] {
        case .child:
            guard let parent = element.parentElement else { return .failsCompletely }
            return next(parent)
        case .nextSibling:
            guard let sibling = element.previousSiblingElement else { return .failsAllSiblings }
            return next(sibling)
        case .descendant:
            var ancestor = element.parentElement
            while let candidate = ancestor {
                let outcome = next(candidate)
                if outcome == .matches || outcome == .failsCompletely { return outcome }
                ancestor = candidate.parentElement
            }
            return .failsCompletely
        case .subsequentSibling:
            let positional = Self.readsPosition(compound, orChildren: true)
            var sibling = element.previousSiblingElement
            while let candidate = sibling {
                guard Self.matches(compound, candidate) else {
                    // The siblings alike to this one fail the compound too.
                    sibling = positional ? candidate.previousSiblingElement : candidate.previousUnlikeSibling
                    continue
                }
                let outcome = matchRest(from: index + 1, candidate)
                if outcome != .failsLocally { return outcome }
                sibling = candidate.previousSiblingElement
            }
            return .failsAllSiblings
        }
    }

    static func matches<E: CSSElement>(_ compound: Compound, _ element: E) -> Bool {
        if !element.attributesAreKnown && readsAttributes(compound) { return false }
        if !element.hasKnownPosition && readsPosition(compound, orChildren: false) { return false }
        for simple in compound.simples where !matches(simple, element) { return false }
        return true
    }

    /// Whether the compound tests the element's place among its siblings (or, with `orChildren`, whether it is
    /// `:empty`), also inside `:not()` and `:is()`.
    static func readsPosition(_ compound: Compound, orChildren: Bool) -> Bool {
        compound.simples.contains { simple in
            switch simple {
            case .firstChild, .lastChild, .onlyChild, .nthChild, .nthLastChild: return true
            case .empty: return orChildren
            case .not(let list), .is(let list): return list.contains { readsPosition($0, orChildren: orChildren) }
            default: return false
            }
        }
    }

    /// Whether an element's siblings or children take part in the match (`readsSiblings`, or `:empty`).
    package var readsStructure: Bool {
        readsSiblings || compounds.contains { Self.readsPosition($0, orChildren: true) }
    }

    /// Whether the compound tests an id, a class or an attribute, also inside `:not()` and `:is()`.
    static func readsAttributes(_ compound: Compound) -> Bool {
        compound.simples.contains { simple in
            switch simple {
            case .id, .className, .attribute: return true
            case .not(let list), .is(let list): return list.contains(where: readsAttributes)
            default: return false
            }
        }
    }

    private static func matches<E: CSSElement>(_ simple: Simple, _ element: E) -> Bool {
        switch simple {
        case .firstChild, .lastChild, .onlyChild, .nthChild, .nthLastChild, .empty:
            guard element.hasKnownPosition else { return false }
        default:
            break
        }
        switch simple {
        case .type(let name): return element.isNamed(name)
        case .id(let id): return element.elementID == id
        case .className(let name): return element.hasClass(name)
        case .attribute(let name, let match, let value, let caseInsensitive):
            guard var actual = element.attributeValue(name) else { return false }
            var value = value
            if caseInsensitive {
                actual = actual.lowercased()
                value = value.lowercased()
            }
            switch match {
            case .exists: return true
            case .equals: return actual == value
            case .includes:
                return !value.isEmpty && !value.contains(where: \.isCSSWhitespace)
                    && actual.split(whereSeparator: \.isCSSWhitespace).contains { $0 == value }
            case .dashMatch: return actual == value || actual.hasPrefix(value + "-")
            case .prefix: return !value.isEmpty && actual.hasPrefix(value)
            case .suffix: return !value.isEmpty && actual.hasSuffix(value)
            case .substring: return !value.isEmpty && actual.contains(value)
            }
        case .firstChild: return element.parentElement != nil && element.previousSiblingElement == nil
        case .lastChild: return element.parentElement != nil && element.nextSiblingElement == nil
        case .onlyChild:
            return element.parentElement != nil && element.previousSiblingElement == nil
                && element.nextSiblingElement == nil
        case .root: return element.parentElement == nil
        case .empty: return element.hasNoChildren
        case .anyLink: return element.isLink
        case .never: return false
        case .nthChild(let a, let b):
            guard element.parentElement != nil else { return false }
            if let position = element.positionAmongSiblings { return Self.isNth(position, a: a, b: b) }
            var position = 1
            var sibling = element.previousSiblingElement
            while let previous = sibling { position += 1; sibling = previous.previousSiblingElement }
            return Self.isNth(position, a: a, b: b)
        case .nthLastChild(let a, let b):
            guard element.parentElement != nil else { return false }
            if let position = element.positionFromEnd { return Self.isNth(position, a: a, b: b) }
            var position = 1
            var sibling = element.nextSiblingElement
            while let next = sibling { position += 1; sibling = next.nextSiblingElement }
            return Self.isNth(position, a: a, b: b)
        case .not(let list): return !list.contains { matches($0, element) }
        case .is(let list): return list.isEmpty || list.contains { matches($0, element) }
        }
    }

    /// Whether `position` is `a`n+`b` for some n ≥ 0.
    static func isNth(_ position: Int, a: Int, b: Int) -> Bool {
        if a == 0 { return position == b }
        let difference = position - b
        return difference % a == 0 && difference / a >= 0
    }

    /// A state this view never shows (`CSSSelector.Simple.never`) in one of its compounds, outside `:not()`: the
    /// selector matches no element.
    package var neverMatches: Bool {
        compounds.contains { compound in compound.simples.contains { if case .never = $0 { true } else { false } } }
    }

    /// Whether the subject's own position among its siblings, or its children, take part in the match: a
    /// structural pseudo-class or `:empty` in the subject's compound (or inside its `:not()`/`:is()`), or a
    /// sibling combinator joining the subject to its left. What the compounds further left test is the same for
    /// every child of one parent, since they are the same ancestors.
    package var subjectDependsOnPosition: Bool {
        func positional(_ compound: Compound) -> Bool {
            compound.simples.contains { simple in
                switch simple {
                case .firstChild, .lastChild, .onlyChild, .nthChild, .nthLastChild, .empty: return true
                case .not(let list), .is(let list): return list.contains(where: positional)
                default: return false
                }
            }
        }
        if positional(compounds[0]) { return true }
        if let first = combinators.first, first == .nextSibling || first == .subsequentSibling { return true }
        return false
    }

    /// Whether any element's place among its siblings takes part in the match: a sibling combinator anywhere, or
    /// `:first-child`, `:last-child`, `:only-child`, `:nth-child()` or `:nth-last-child()` in any compound (inside
    /// `:not()` and `:is()` too). A table's rows parsed in chunks know only the siblings in their chunk
    /// (`TableRowRegions`).
    package var readsSiblings: Bool {
        func positional(_ compound: Compound) -> Bool {
            compound.simples.contains { simple in
                switch simple {
                case .firstChild, .lastChild, .onlyChild, .nthChild, .nthLastChild: return true
                case .not(let list), .is(let list): return list.contains(where: positional)
                default: return false
                }
            }
        }
        return combinators.contains { $0 == .nextSibling || $0 == .subsequentSibling } || compounds.contains(where: positional)
    }

    /// The attribute names the selector reads, in every compound and inside `:not()` and `:is()`.
    package var attributeNames: [String] {
        func names(_ compound: Compound) -> [String] {
            compound.simples.flatMap { simple -> [String] in
                switch simple {
                case .attribute(let name, _, _, _): return [name]
                case .anyLink: return ["href"]
                case .not(let list), .is(let list): return list.flatMap(names)
                default: return []
                }
            }
        }
        return compounds.flatMap(names)
    }

    /// Calls `body` with each attribute name the selector tests (`[name]` and its matchers, also inside `:not()` and
    /// `:is()`), without making a list.
    package func forEachAttributeName(_ body: (String) -> Void) {
        func visit(_ compounds: [Compound]) {
            for compound in compounds {
                for simple in compound.simples {
                    switch simple {
                    case .attribute(let name, _, _, _): body(name)
                    case .not(let list), .is(let list): visit(list)
                    default: break
                    }
                }
            }
        }
        visit(compounds)
    }

    /// Whether `known` holds for every attribute name the selector reads (`attributeNames`), without making the list.
    package func attributeNames(allSatisfy known: (String) -> Bool) -> Bool {
        func check(_ compounds: [Compound]) -> Bool {
            for compound in compounds {
                for simple in compound.simples {
                    switch simple {
                    case .attribute(let name, _, _, _): if !known(name) { return false }
                    case .not(let list), .is(let list): if !check(list) { return false }
                    default: break
                    }
                }
            }
            return true
        }
        return check(compounds)
    }

    // MARK: Index keys

    /// What the rule index files this selector under: its subject's id, else a class, else its type.
    package enum Key: Hashable, Sendable { case id(String), className(String), type(String), universal }

    package var key: Key {
        var best = Key.universal
        for simple in compounds[0].simples {
            switch simple {
            case .id(let id): return .id(id)
            case .className(let name): if case .type = best { best = .className(name) } else if best == .universal { best = .className(name) }
            case .type(let name): if best == .universal { best = .type(name) }
            default: break
            }
        }
        return best
    }
}

extension Character {
    /// CSS's whitespace: space, tab, newline, form feed, carriage return.
    var isCSSWhitespace: Bool { self == " " || self == "\t" || self == "\n" || self == "\u{0C}" || self == "\r" || self == "\r\n" }
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
