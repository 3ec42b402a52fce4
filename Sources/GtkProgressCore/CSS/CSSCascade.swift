/// The `display` values the document model acts on (CSS Display 3). Flex and grid containers read as blocks.
/// The table-internal values (CSS Display 3 §2.4, CSS 2.1 §17.2) are kept apart, so an element that is no HTML
/// table part can still be laid out as one.
package enum CSSDisplay: Sendable, Equatable {
    case none, block, inline, inlineBlock, listItem, contents
    case table, tableRowGroup, tableRow, tableCell, tableCaption, tableColumn
}

package enum CSSTextTransform: Sendable, Equatable { case none, uppercase, lowercase, capitalize }

/// What an element passes on to its children beyond what the text style already carries: `visibility`,
/// `text-transform` and custom properties (CSS Variables 1 §2: custom properties inherit). Shared, unchanged,
/// by every element that sets none of them.
package final class CSSInherited: Sendable {
    package let hidden: Bool
    package let transform: CSSTextTransform
    /// `list-style-type` (an inherited property: set on a list, it reaches the items); nil while neither a rule
    /// nor a list's HTML default has set it, which reads as the initial `disc`.
    package let listStyle: CSSListStyleType?
    package let custom: [String: [CSSComponent]]

    package init(hidden: Bool = false, transform: CSSTextTransform = .none, listStyle: CSSListStyleType? = nil,
                 custom: [String: [CSSComponent]] = [:]) {
        self.hidden = hidden
        self.transform = transform
        self.listStyle = listStyle
        self.custom = custom
    }

    package static let initial = CSSInherited()
}

/// An element's inherited styles as the walk passes them down: the two the text reads for every run (`hidden`,
/// `transform`) at hand, and where the whole is kept (`CSSStyleStore`). Plain values: a copy counts no reference.
package struct CSSInheritedRef: Sendable, Equatable {
    /// Index into `CSSStyleStore`'s inherited styles; 0 is `CSSInherited.initial`.
    package var index: Int32
    package var hidden: Bool
    package var transform: CSSTextTransform

    package static let initial = CSSInheritedRef(index: 0, hidden: false, transform: .none)
}

/// The inherited styles and `::before`/`::after` texts of one document's elements, kept for the whole walk and
/// named by index in the styles (`CSSInheritedRef`, `CSSElementStyle.pseudoContent`), so a style is plain values
/// that are copied and dropped for every element without counting references.
package struct CSSStyleStore: Sendable {
    private var inherited: [CSSInherited] = [CSSInherited.initial]
    private var pseudoContent: [(before: String?, after: String?)] = []
    /// The entries made for a parent's entry and a change of the plain inherited values (no custom property and
    /// no string list marker set): alike elements (every `p` a rule hides) then share one.
    private var derived: [UInt64: Int32] = [:]

    package init() {}

    package subscript(_ ref: CSSInheritedRef) -> CSSInherited { inherited[Int(ref.index)] }

    /// `ref`'s `list-style-type`.
    package func listStyle(of ref: CSSInheritedRef) -> CSSListStyleType? {
        ref.index == 0 ? nil : inherited[Int(ref.index)].listStyle
    }

    /// A new entry for `value`.
    package mutating func add(_ value: CSSInherited) -> CSSInheritedRef {
        inherited.append(value)
        return CSSInheritedRef(index: Int32(inherited.count - 1), hidden: value.hidden, transform: value.transform)
    }

    /// The entry for `parent` with its plain values replaced, found again when the same change was made to the
    /// same parent before.
    mutating func derive(from parent: CSSInheritedRef, hidden: Bool, transform: CSSTextTransform,
                         listStyle: CSSListStyleType?) -> CSSInheritedRef {
        let custom = inherited[Int(parent.index)].custom
        guard let code = Self.code(listStyle) else {
            return add(CSSInherited(hidden: hidden, transform: transform, listStyle: listStyle, custom: custom))
        }
        let transformCode: UInt64
        switch transform {
        case .none: transformCode = 0
        case .uppercase: transformCode = 1
        case .lowercase: transformCode = 2
        case .capitalize: transformCode = 3
        }
        let key = UInt64(UInt32(bitPattern: parent.index)) << 16 | code << 3 | transformCode << 1 | (hidden ? 1 : 0)
        if let index = derived[key] {
            return CSSInheritedRef(index: index, hidden: hidden, transform: transform)
        }
        let ref = add(CSSInherited(hidden: hidden, transform: transform, listStyle: listStyle, custom: custom))
        derived[key] = ref.index
        return ref
    }

    /// `ref` with its list style replaced (itself when it is already that).
    package mutating func with(listStyle: CSSListStyleType, _ ref: CSSInheritedRef) -> CSSInheritedRef {
        listStyle == self.listStyle(of: ref) ? ref
            : derive(from: ref, hidden: ref.hidden, transform: ref.transform, listStyle: listStyle)
    }

    /// A list style as a small number for `derived`'s keys; nil for a string marker.
    private static func code(_ listStyle: CSSListStyleType?) -> UInt64? {
        switch listStyle {
        case nil: return 0
        case .none?: return 1
        case .disc?: return 2
        case .circle?: return 3
        case .square?: return 4
        case .disclosureOpen?: return 5
        case .disclosureClosed?: return 6
        case .decimal?: return 7
        case .decimalLeadingZero?: return 8
        case .lowerAlpha?: return 9
        case .upperAlpha?: return 10
        case .lowerRoman?: return 11
        case .upperRoman?: return 12
        case .lowerGreek?: return 13
        case .string?: return nil
        }
    }

    mutating func addPseudoContent(before: String?, after: String?) -> Int32 {
        pseudoContent.append((before, after))
        return Int32(pseudoContent.count - 1)
    }

    /// A style's `::before` string content.
    package func before(_ style: CSSElementStyle) -> String? {
        style.pseudoContent < 0 ? nil : pseudoContent[Int(style.pseudoContent)].before
    }

    /// A style's `::after` string content.
    package func after(_ style: CSSElementStyle) -> String? { after(pseudoContent: style.pseudoContent) }

    /// The `::after` string content at `index` (a `CSSElementStyle.pseudoContent`).
    package func after(pseudoContent index: Int32) -> String? {
        index < 0 ? nil : pseudoContent[Int(index)].after
    }
}

/// The author's styles for one element, as the document builder uses them. Each optional is nil when no rule set
/// it, so the element's own HTML meaning (a `<b>` is bold) stands. Plain values only: the style is copied and
/// dropped for every element, and what is not a plain value is in the `CSSStyleStore` the cascade was given.
package struct CSSElementStyle: Sendable {
    package var display: CSSDisplay?
    package var bold: Bool?
    package var italic: Bool?
    package var monospace: Bool?
    /// `white-space: pre` and its kin.
    package var preformatted: Bool?
    package var alignment: TextAlignment?
    /// The element's own `text-decoration` lines (false for `none`); links keep the view's link look whatever
    /// these say.
    package var underline: Bool?
    package var strikethrough: Bool?
    /// `color` and `background-color` (or a `background` that is one colour or `none`), with their alpha: the
    /// document builder composites a translucent one over the background behind it, when that is known.
    package var color: CSSRGBA?
    package var background: CSSRGBA?
    /// `::before` and `::after` string content: index into the store's (`CSSStyleStore.before`, `after`), -1 for
    /// the many elements with neither.
    package var pseudoContent: Int32 = -1
    package var inherited: CSSInheritedRef
    /// Whether the element's own declarations set `list-style-type` (so an HTML default, a list's own or a `type`
    /// attribute's, does not apply).
    package var declaresListStyle = false
    /// Whether another child of the same parent with the same type and attributes gets this same style (no rule
    /// that was tested looks at the element's place or children): Blink's style sharing.
    package var shareable = false

    package init(inherited: CSSInheritedRef) { self.inherited = inherited }
}

/// The cascade (CSS Cascade 5 §6) over one origin, the author's: declarations sorted by importance, then by
/// whether they come from a `style` attribute, then by cascade layer, specificity and source order; the last one
/// wins.
package enum CSSCascade {
    /// `var()` references followed at most this deep (CSS Variables 1 §3 asks for cycles to be caught; a bound also
    /// stops a chain of 100,000 variables each doubling the last).
    static let maximumVariableDepth = 16
    static let maximumVariableLength = 4096

    /// `store`: where the inherited styles and pseudo-element texts of the document's elements are kept; `parent`
    /// is one of its entries.
    package static func style<E: CSSElement>(for element: E, rules: CSSRuleSet, styleAttribute: [CSSDeclaration],
                                             parent: CSSInheritedRef, store: inout CSSStyleStore) -> CSSElementStyle {
        style(for: element, rules: rules, styleAttribute: styleAttribute, parent: parent, store: &store,
              filter: CSSRuleSet.noAncestors, filtering: false)
    }

    /// `ancestors`: the element's ancestors as a `CSSAncestorFilter`, kept by the caller (and read in place).
    package static func style<E: CSSElement>(for element: E, rules: CSSRuleSet, styleAttribute: [CSSDeclaration],
                                             parent: CSSInheritedRef, store: inout CSSStyleStore,
                                             ancestors: CSSAncestorFilter) -> CSSElementStyle {
        var matches = CSSRuleSet.Matches()
        return style(for: element, rules: rules, styleAttribute: styleAttribute, parent: parent, store: &store,
                     filter: ancestors, filtering: true, matches: &matches)
    }

    /// `matches`: room for the rules that match, kept by a caller that styles many elements (its lists are then
    /// reused rather than allocated for each element).
    package static func style<E: CSSElement>(for element: E, rules: CSSRuleSet, styleAttribute: [CSSDeclaration],
                                             parent: CSSInheritedRef, store: inout CSSStyleStore,
                                             ancestors: CSSAncestorFilter,
                                             matches: inout CSSRuleSet.Matches) -> CSSElementStyle {
        style(for: element, rules: rules, styleAttribute: styleAttribute, parent: parent, store: &store,
              filter: ancestors, filtering: true, matches: &matches)
    }

    /// `keys`: the element's, read already (the caller pushes the same onto its ancestor filter).
    package static func style<E: CSSElement>(for element: E, keys: CSSElementKeys, rules: CSSRuleSet,
                                             styleAttribute: [CSSDeclaration], parent: CSSInheritedRef,
                                             store: inout CSSStyleStore, ancestors: CSSAncestorFilter,
                                             matches: inout CSSRuleSet.Matches) -> CSSElementStyle {
        style(for: element, keys: keys, rules: rules, styleAttribute: styleAttribute, parent: parent, store: &store,
              filter: ancestors, filtering: true, matches: &matches)
    }

    private static func style<E: CSSElement>(for element: E, rules: CSSRuleSet, styleAttribute: [CSSDeclaration],
                                             parent: CSSInheritedRef, store: inout CSSStyleStore,
                                             filter: CSSAncestorFilter, filtering: Bool) -> CSSElementStyle {
        var matches = CSSRuleSet.Matches()
        return style(for: element, rules: rules, styleAttribute: styleAttribute, parent: parent, store: &store,
                     filter: filter, filtering: filtering, matches: &matches)
    }

    private static func style<E: CSSElement>(for element: E, rules: CSSRuleSet, styleAttribute: [CSSDeclaration],
                                             parent parentRef: CSSInheritedRef, store: inout CSSStyleStore,
                                             filter: CSSAncestorFilter, filtering: Bool,
                                             matches matched: inout CSSRuleSet.Matches) -> CSSElementStyle {
        style(for: element, keys: nil, rules: rules, styleAttribute: styleAttribute, parent: parentRef, store: &store,
              filter: filter, filtering: filtering, matches: &matched)
    }

    private static func style<E: CSSElement>(for element: E, keys: CSSElementKeys?, rules: CSSRuleSet,
                                             styleAttribute: [CSSDeclaration],
                                             parent parentRef: CSSInheritedRef, store: inout CSSStyleStore,
                                             filter: CSSAncestorFilter, filtering: Bool,
                                             matches matched: inout CSSRuleSet.Matches) -> CSSElementStyle {
        var style = CSSElementStyle(inherited: parentRef)
        if rules.isEmpty {
            matched = CSSRuleSet.Matches()
        } else {
            rules.match(element, keys: keys ?? CSSElementKeys(element), filter: filter, filtering: filtering,
                        into: &matched)
        }
        style.shareable = matched.shareable
        guard !matched.own.isEmpty || !styleAttribute.isEmpty || !matched.before.isEmpty || !matched.after.isEmpty
        else { return style }
        cascade(into: &style, element: element, rules: rules, styleAttribute: styleAttribute, parent: parentRef,
                store: &store, matched: matched)
        return style
    }

    /// The declarations of the rules that matched (and of the `style` attribute) applied to `style`. Kept out of
    /// line: most elements of a page match no rule, and their path through `style` stays short, so the code every
    /// element runs through is smaller in the instruction cache.
    @inline(never)
    private static func cascade<E: CSSElement>(into style: inout CSSElementStyle, element: E, rules: CSSRuleSet,
                                               styleAttribute: [CSSDeclaration], parent parentRef: CSSInheritedRef,
                                               store: inout CSSStyleStore, matched: CSSRuleSet.Matches) {
        let parent = store[parentRef]
        // The `style` attribute's declarations, read as a sheet's are (they are few, and seen once).
        let attribute = styleAttribute.compactMap(compile)
        // Declarations in cascade order: normal before important, the `style` attribute after the rules; important
        // ones with the layers in reverse (CSS Cascade 5 §6.4.3).
        let importantOrder = rules.importantOrder(matched.own)
        func forEachDeclaration(_ body: (CSSCompiledDeclaration) -> Void) {
            for important in [false, true] {
                for index in important ? importantOrder : matched.own {
                    for declaration in rules.compiled[Int(rules.entries[Int(index)].block)]
                    where declaration.important == important {
                        body(declaration)
                    }
                }
                for declaration in attribute where declaration.important == important { body(declaration) }
            }
        }
        var custom = parent.custom
        var customChanged = false
        var usesVariables = false
        let needsVariables = attribute.contains { $0.readsOrSetsVariables }
            || matched.own.contains { rules.blockReadsOrSetsVariables[Int(rules.entries[Int($0)].block)] }
        if needsVariables {
            forEachDeclaration { declaration in
                if case .custom(let name, let value) = declaration.kind {
                    custom[name] = value
                    customChanged = true
                } else if case .withVariables = declaration.kind {
                    usesVariables = true
                }
            }
        }
        var inherited = Inherited(hidden: parent.hidden, transform: parent.transform, listStyle: parent.listStyle)
        forEachDeclaration { declaration in
            switch declaration.kind {
            case .effect(let delta):
                delta.apply(to: &style, inherited: &inherited, parent: parent)
            case .withVariables(let name, let value):
                guard usesVariables, let value = substitute(value, custom: custom, depth: 0) else { return }
                effect(name, value).apply(to: &style, inherited: &inherited, parent: parent)
            case .custom:
                break
            }
        }
        // Clipped away entirely (the "visually hidden" text of skip links and screen-reader labels): as `none`.
        if inherited.clipped { style.display = CSSDisplay.none }
        if customChanged {
            style.inherited = store.add(CSSInherited(hidden: inherited.hidden, transform: inherited.transform,
                                                     listStyle: inherited.listStyle, custom: custom))
        } else if inherited.hidden != parent.hidden || inherited.transform != parent.transform
                    || inherited.listStyle != parent.listStyle {
            style.inherited = store.derive(from: parentRef, hidden: inherited.hidden, transform: inherited.transform,
                                           listStyle: inherited.listStyle)
        }
        style.declaresListStyle = inherited.declaresListStyle
        let before = matched.before.isEmpty ? nil
            : content(matched.before, rules: rules, element: element, custom: custom)
        let after = matched.after.isEmpty ? nil : content(matched.after, rules: rules, element: element, custom: custom)
        if before != nil || after != nil { style.pseudoContent = store.addPseudoContent(before: before, after: after) }
    }

    /// A declaration read once, when its sheet is added: what it does to an element, or, for one that uses
    /// `var()`, its text kept for substitution element by element. Nil for a property the model does not use.
    static func compile(_ declaration: CSSDeclaration) -> CSSCompiledDeclaration? {
        if declaration.name.hasPrefix("--") {
            return CSSCompiledDeclaration(kind: .custom(declaration.name, declaration.value),
                                          important: declaration.important)
        }
        guard isUsed(declaration.name), declaration.name != "content" else { return nil }
        if declaration.value.contains(where: containsVar) {
            return CSSCompiledDeclaration(kind: .withVariables(declaration.name, declaration.value),
                                          important: declaration.important)
        }
        let delta = effect(declaration.name, declaration.value)
        guard !delta.isEmpty else { return nil }
        return CSSCompiledDeclaration(kind: .effect(delta), important: declaration.important)
    }

    /// The `content` a pseudo-element ends up with: its strings (and `attr()`), with icon-font glyphs from the
    /// Private Use Area left out; nil for `none`, `normal`, or anything else (counters, images).
    private static func content<E: CSSElement>(_ entries: [Int32], rules: CSSRuleSet, element: E,
                                               custom: [String: [CSSComponent]]) -> String? {
        guard !entries.isEmpty else { return nil }
        var winner: [CSSComponent]?
        for important in [false, true] {
            for index in important ? rules.importantOrder(entries) : entries {
                for declaration in rules.blocks[Int(rules.entries[Int(index)].block)]
                where declaration.name == "content" && declaration.important == important {
                    winner = declaration.value
                }
            }
        }
        guard let value = winner.flatMap({ substitute($0, custom: custom, depth: 0) }) else { return nil }
        var text = ""
        for component in value {
            switch component {
            case .token(.whitespace): continue
            case .token(.string(let string)): text += string
            case .function(let name, let arguments) where name.lowercased() == "attr":
                if case .token(.ident(let attribute))? = arguments.trimmingWhitespace.first {
                    text += element.attributeValue(attribute.lowercased()) ?? ""
                }
            default:
                return nil
            }
        }
        let visible = String(String.UnicodeScalarView(text.unicodeScalars.filter { !isPrivateUse($0) }))
        return visible.isEmpty ? nil : visible
    }

    static func isPrivateUse(_ scalar: Unicode.Scalar) -> Bool {
        (0xE000...0xF8FF).contains(scalar.value) || scalar.value >= 0xF0000
    }

    /// CSS Variables 1 §3: each `var(--name, fallback)` replaced by the property's value or the fallback; nil when
    /// neither exists (the declaration is then "invalid at computed-value time" and ignored here).
    static func substitute(_ value: [CSSComponent], custom: [String: [CSSComponent]], depth: Int) -> [CSSComponent]? {
        guard value.contains(where: containsVar) else { return value }
        guard depth < maximumVariableDepth else { return nil }
        var out: [CSSComponent] = []
        for component in value {
            switch component {
            case .function(let name, let arguments) where isVar(name):
                var parts = arguments.trimmingWhitespace[...]
                guard case .token(.ident(let variable))? = parts.popFirst(), variable.hasPrefix("--") else { return nil }
                while parts.first?.isWhitespace == true { parts = parts.dropFirst() }
                var fallback: [CSSComponent]?
                if parts.first?.isToken(.comma) == true { fallback = Array(parts.dropFirst()).trimmingWhitespace }
                let chosen = custom[variable] ?? fallback
                guard let chosen, let resolved = substitute(chosen, custom: custom, depth: depth + 1) else { return nil }
                out.append(contentsOf: resolved)
            case .function(let name, let arguments):
                guard let resolved = substitute(arguments, custom: custom, depth: depth + 1) else { return nil }
                out.append(.function(name, resolved))
            case .block(let open, let contents):
                guard let resolved = substitute(contents, custom: custom, depth: depth + 1) else { return nil }
                out.append(.block(open, resolved))
            default:
                out.append(component)
            }
            guard out.count <= maximumVariableLength else { return nil }
        }
        return out
    }

    /// `var` in any case, compared without lowercasing a copy (most values have functions, few have `var()`).
    static func isVar(_ name: String) -> Bool {
        var utf8 = name.utf8.makeIterator()
        guard utf8.next().map({ $0 | 0x20 }) == ascii("v"), utf8.next().map({ $0 | 0x20 }) == ascii("a"),
              utf8.next().map({ $0 | 0x20 }) == ascii("r") else { return false }
        return utf8.next() == nil
    }

    static func containsVar(_ component: CSSComponent) -> Bool {
        switch component {
        case .function(let name, let arguments): return isVar(name) || arguments.contains(where: containsVar)
        case .block(_, let contents): return contents.contains(where: containsVar)
        case .token: return false
        }
    }

    // MARK: Properties

    /// The properties `apply` reads, and `content` for pseudo-elements; custom properties feed `var()`.
    static let usedProperties: Set<String> = [
        "display", "visibility", "font-weight", "font-style", "font-family", "font", "white-space", "text-align",
        "list-style-type", "list-style", "text-transform", "content", "text-decoration", "text-decoration-line",
        "color", "background-color", "background", "clip", "clip-path",
    ]

    /// `usedProperties`' names as bytes, for `isUsed(asciiName:)`.
    private static let usedPropertyBytes: [[UInt8]] = usedProperties.map { Array($0.utf8) }
    /// The properties only colours come from, which `--dump` does not print (`PageStyleOptions.colours`).
    static let colourProperties: Set<String> = ["color", "background-color", "background"]
    private static let usedPropertyBytesWithoutColours: [[UInt8]] =
        usedProperties.subtracting(colourProperties).map { Array($0.utf8) }

    /// The first letters of `usedProperties`, as bits from `a`: most of a real sheet is margins, padding, sizes and
    /// positions, ruled out by their first letter before any name is compared.
    private static let usedFirstLetters: UInt32 = usedProperties.reduce(0) { bits, name in
        guard let first = name.utf8.first, first >= ascii("a"), first <= ascii("z") else { return bits }
        return bits | 1 << UInt32(first - ascii("a"))
    }

    /// Whether a lowercase letter `byte` begins one of `usedProperties`.
    private static func mayBeginUsed(_ byte: UInt8) -> Bool {
        byte >= ascii("a") && byte <= ascii("z") && usedFirstLetters & 1 << UInt32(byte - ascii("a")) != 0
    }

    /// `isUsed` on a name's bytes as written (ASCII case-insensitive; a custom property is always used), without
    /// making a string of it.
    static func isUsed(asciiName bytes: UnsafeBufferPointer<UInt8>, colours: Bool = true) -> Bool {
        guard let first = bytes.first else { return false }
        if first == ascii("-") { return bytes.count > 1 && bytes[1] == ascii("-") }
        guard mayBeginUsed(first | 0x20) else { return false }
        for name in colours ? usedPropertyBytes : usedPropertyBytesWithoutColours where name.count == bytes.count {
            var same = true
            for index in 0..<name.count where (bytes[index] >= ascii("A") && bytes[index] <= ascii("Z") ? bytes[index] | 0x20 : bytes[index]) != name[index] {
                same = false
                break
            }
            if same { return true }
        }
        return false
    }

    static func isUsed(_ name: String) -> Bool { isUsed(name, colours: true) }

    static func isUsed(_ name: String, colours: Bool) -> Bool {
        guard let first = name.utf8.first else { return false }
        if first == ascii("-") { return name.hasPrefix("--") }
        guard mayBeginUsed(first) else { return false }
        if !colours, colourProperties.contains(name) { return false }
        // The names' bytes compared in place: cheaper than hashing the string for `usedProperties`, and exact
        // (`name` is already lowercase; an upper-case letter matches nothing, as in the set).
        var name = name
        return name.withUTF8 { bytes in
            usedPropertyBytes.contains { $0.count == bytes.count && $0.withUnsafeBufferPointer { $0.elementsEqual(bytes) } }
        }
    }

    private static func keywords(_ value: [CSSComponent]) -> [String] {
        value.compactMap { component in
            if case .token(.ident(let word)) = component { return word.lowercased() }
            return nil
        }
    }

    /// What an element passes on, while its declarations are applied.
    struct Inherited {
        var hidden: Bool
        var transform: CSSTextTransform
        var listStyle: CSSListStyleType?
        /// A declaration of the element's own set `listStyle`.
        var declaresListStyle = false
        /// Not passed on: the element's own `clip`/`clip-path` leave nothing of it to see (`CSSStyleDelta.clipped`),
        /// read once all its declarations are applied.
        var clipped = false
    }

    /// `rect(top, right, bottom, left)`'s four edges in pixels (`0` unitless), nil for anything else (`auto`
    /// edges, other units): such a clip is not read.
    static func clipEdges(_ value: [CSSComponent]) -> [Double]? {
        guard case .function(let name, let arguments)? = value.trimmingWhitespace.first, name.lowercased() == "rect"
        else { return nil }
        var edges: [Double] = []
        for part in arguments where !part.isWhitespace && !part.isToken(.comma) {
            switch part {
            case .token(.number(let number, _, _)) where number == 0: edges.append(0)
            case .token(.dimension(let number, _, _, let unit)) where unit.lowercased() == "px": edges.append(number)
            default: return nil
            }
        }
        return edges.count == 4 ? edges : nil
    }

    /// One declaration's effect. Unknown properties and values are ignored, as CSS asks (CSS 2.1 §4.2).
    static func effect(_ name: String, _ value: [CSSComponent]) -> CSSStyleDelta {
        var style = CSSStyleDelta()
        let words = keywords(value)
        let single = words.count == 1 && value.trimmingWhitespace.count == 1 ? words[0] : nil
        switch name {
        case "display":
            // Display 3's one- and two-keyword forms: the inner keyword (flex, grid, flow-root) makes a block.
            // The keywords looked at once each, without hashing them into a set; the first test that holds wins.
            var none = false, contents = false, listItem = false, table: CSSDisplay?, inlineBlock = false
            var inline = false, block = false
            for word in words {
                switch word {
                case "none": none = true
                case "contents": contents = true
                case "list-item": listItem = true
                case "table": table = .table
                case "inline-block", "inline-flex", "inline-grid", "inline-table": inlineBlock = true
                case "inline": inline = true
                case "block", "flex", "grid", "flow-root": block = true
                case "table-row-group", "table-header-group", "table-footer-group": table = .tableRowGroup
                case "table-row": table = .tableRow
                case "table-cell": table = .tableCell
                case "table-caption": table = .tableCaption
                case "table-column", "table-column-group": table = .tableColumn
                default: break
                }
            }
            if none { style.display = CSSDisplay.none }
            else if contents { style.display = .contents }
            else if listItem { style.display = .listItem }
            else if let table { style.display = table }
            else if inlineBlock { style.display = .inlineBlock }
            else if inline { style.display = words.allSatisfy { $0 == "inline" } ? .inline : .inlineBlock }
            else if block { style.display = .block }
        case "visibility":
            switch single {
            case "hidden", "collapse": style.hidden = .value(true)
            case "visible": style.hidden = .value(false)
            case "inherit", "unset": style.hidden = .parent
            case "initial": style.hidden = .value(false)
            default: break
            }
        case "font-weight":
            if let single {
                switch single {
                case "bold", "bolder": style.bold = true
                case "normal", "lighter", "initial": style.bold = false
                default: break
                }
            } else if case .token(.number(let weight, _, _))? = value.trimmingWhitespace.first {
                style.bold = weight >= 600
            }
        case "font-style":
            switch single {
            case "italic", "oblique": style.italic = true
            case "normal", "initial": style.italic = false
            default: break
            }
        case "font-family", "font":
            let families = value.compactMap { component -> String? in
                switch component {
                case .token(.ident(let word)), .token(.string(let word)): return word.lowercased()
                default: return nil
                }
            }
            let mono = ["monospace", "courier", "consolas", "menlo", "monaco", "sfmono-regular", "courier new",
                        "dejavu sans mono", "liberation mono", "ui-monospace"]
            if families.contains(where: { mono.contains($0) || $0.hasSuffix(" mono") }) {
                style.monospace = true
            } else if name == "font-family", let first = families.first, ["sans-serif", "serif", "system-ui"].contains(first)
                        || families.contains("sans-serif") || families.contains("serif") {
                style.monospace = false
            }
        case "white-space":
            switch single {
            case "pre", "pre-wrap", "break-spaces": style.preformatted = true
            case "normal", "nowrap", "pre-line", "initial": style.preformatted = false
            default: break
            }
        case "text-align":
            switch single {
            case "left", "start", "justify": style.alignment = .left
            case "center", "-webkit-center", "-moz-center": style.alignment = .center
            case "right", "end", "-webkit-right", "-moz-right": style.alignment = .right
            default: break
            }
        case "list-style-type", "list-style":
            style.listStyle = CSSListStyleType.declared(value, shorthand: name == "list-style")
        case "text-decoration", "text-decoration-line":
            // The shorthand's other parts (style, colour, thickness) leave the lines as the value lists them;
            // `overline` and `blink` are not drawn here.
            guard !words.isEmpty || name == "text-decoration", words != ["inherit"], words != ["revert"] else { break }
            style.underline = words.contains("underline")
            style.strikethrough = words.contains("line-through")
        case "color", "background-color", "background":
            // A `background` with an image or more than a colour is not read: what it paints is unknown here.
            let color: CSSRGBA
            if name == "background", keywords(value) == ["none"], value.trimmingWhitespace.count == 1 {
                color = CSSRGBA(rgb: 0, alpha: 0)  // no image and the initial colour, transparent
            } else {
                guard let read = CSSColor.parseWithAlpha(value) else { break }
                color = read
            }
            if name == "color" { style.color = color } else { style.background = color }
        case "clip":
            // CSS 2.1 §11.1.2 `rect(top, right, bottom, left)` (commas or spaces), on the absolutely positioned
            // elements it applies to: a rectangle with no area shows nothing, as `rect(0 0 0 0)` and
            // `rect(1px, 1px, 1px, 1px)` in every "visually hidden" class. `auto` shows the whole box.
            if single == "auto" { style.clipped = false }
            else if let edges = Self.clipEdges(value) { style.clipped = edges[2] <= edges[0] || edges[1] <= edges[3] }
        case "clip-path":
            // CSS Masking 1 `inset()`: from 50% inward on every side nothing is left (`inset(50%)`, the modern
            // "visually hidden"); `none` shows the whole element.
            if single == "none" { style.clipped = false }
            else if case .function(let name, let arguments)? = value.trimmingWhitespace.first,
                    name.lowercased() == "inset" {
                let parts = arguments.filter { !$0.isWhitespace }
                style.clipped = !parts.isEmpty && parts.allSatisfy { part in
                    if case .token(.percentage(let share)) = part { return share >= 50 }
                    return false
                }
            }
        case "text-transform":
            switch single {
            case "uppercase": style.transform = .uppercase
            case "lowercase": style.transform = .lowercase
            case "capitalize": style.transform = .capitalize
            case "none", "initial": style.transform = CSSTextTransform.none
            default: break
            }
        default:
            break
        }
        return style
    }
}

/// A value that is either set or taken from the parent (`inherit`, and `unset` on an inherited property).
package enum CSSInheritable<Value: Sendable & Equatable>: Sendable, Equatable {
    case value(Value)
    case parent
}

/// What one declaration sets, read from its value once: every field nil but those it sets.
package struct CSSStyleDelta: Sendable {
    var display: CSSDisplay?
    var bold: Bool?
    var italic: Bool?
    var monospace: Bool?
    var preformatted: Bool?
    var alignment: TextAlignment?
    var underline: Bool?
    var strikethrough: Bool?
    var color: CSSRGBA?
    var background: CSSRGBA?
    var hidden: CSSInheritable<Bool>?
    var transform: CSSTextTransform?
    var listStyle: CSSInheritable<CSSListStyleType>?
    /// `clip` or `clip-path` leave nothing of the element to see (true), or show it whole (false).
    var clipped: Bool?

    var isEmpty: Bool {
        display == nil && bold == nil && italic == nil && monospace == nil && preformatted == nil && alignment == nil
            && underline == nil && strikethrough == nil && color == nil && background == nil && hidden == nil
            && transform == nil && listStyle == nil && clipped == nil
    }

    func apply(to style: inout CSSElementStyle, inherited: inout CSSCascade.Inherited, parent: CSSInherited) {
        if let clipped { inherited.clipped = clipped }
        if let display { style.display = display }
        if let bold { style.bold = bold }
        if let italic { style.italic = italic }
        if let monospace { style.monospace = monospace }
        if let preformatted { style.preformatted = preformatted }
        if let alignment { style.alignment = alignment }
        if let underline { style.underline = underline }
        if let strikethrough { style.strikethrough = strikethrough }
        if let color { style.color = color }
        if let background { style.background = background }
        switch hidden {
        case .value(let value)?: inherited.hidden = value
        case .parent?: inherited.hidden = parent.hidden
        case nil: break
        }
        if let transform { inherited.transform = transform }
        switch listStyle {
        case .value(let value)?: inherited.listStyle = value
        case .parent?: inherited.listStyle = parent.listStyle
        case nil: break
        }
        if listStyle != nil { inherited.declaresListStyle = true }
    }
}

/// A declaration as the rule set keeps it (`CSSCascade.compile`).
package struct CSSCompiledDeclaration: Sendable {
    enum Kind: Sendable {
        case effect(CSSStyleDelta)
        /// A custom property, which `var()` reads.
        case custom(String, [CSSComponent])
        /// A property whose value uses `var()`: read for each element once the variables are known.
        case withVariables(String, [CSSComponent])
    }
    let kind: Kind
    let important: Bool

    var readsOrSetsVariables: Bool {
        if case .effect = kind { return false }
        return true
    }
}
