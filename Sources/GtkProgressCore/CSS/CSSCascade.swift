/// The `display` values the document model acts on (CSS Display 3). Flex and grid containers read as blocks.
package enum CSSDisplay: Sendable, Equatable {
    case none, block, inline, inlineBlock, listItem, contents, tablePart
}

package enum CSSTextTransform: Sendable, Equatable { case none, uppercase, lowercase, capitalize }

/// What an element passes on to its children beyond what the text style already carries: `visibility`,
/// `text-transform` and custom properties (CSS Variables 1 §2: custom properties inherit). Shared, unchanged,
/// by every element that sets none of them.
package final class CSSInherited: Sendable {
    package let hidden: Bool
    package let transform: CSSTextTransform
    /// `list-style-type: none` (an inherited property: set on a list, it reaches the items).
    package let noListMarker: Bool
    package let custom: [String: [CSSComponent]]

    package init(hidden: Bool = false, transform: CSSTextTransform = .none, noListMarker: Bool = false,
                 custom: [String: [CSSComponent]] = [:]) {
        self.hidden = hidden
        self.transform = transform
        self.noListMarker = noListMarker
        self.custom = custom
    }

    package static let initial = CSSInherited()
}

/// The author's styles for one element, as the document builder uses them. Each optional is nil when no rule set
/// it, so the element's own HTML meaning (a `<b>` is bold) stands.
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
    /// `color` and `background-color` (or a `background` that is one colour), `0xrrggbb`.
    package var color: UInt32?
    package var background: UInt32?
    /// `::before` and `::after` string content.
    package var before: String?
    package var after: String?
    package var inherited: CSSInherited

    package init(inherited: CSSInherited) { self.inherited = inherited }
}

/// The cascade (CSS Cascade 4 §6) over one origin, the author's: declarations sorted by importance, then by
/// whether they come from a `style` attribute, then by specificity and source order; the last one wins.
package enum CSSCascade {
    /// `var()` references followed at most this deep (CSS Variables 1 §3 asks for cycles to be caught; a bound also
    /// stops a chain of 100,000 variables each doubling the last).
    static let maximumVariableDepth = 16
    static let maximumVariableLength = 4096

    /// `ancestors`: the element's ancestors as a `CSSAncestorFilter`, when the caller keeps one.
    package static func style<E: CSSElement>(for element: E, rules: CSSRuleSet, styleAttribute: [CSSDeclaration],
                                             parent: CSSInherited, ancestors: CSSAncestorFilter? = nil)
        -> CSSElementStyle {
        let matched: (own: [CSSRuleSet.Entry], before: [CSSRuleSet.Entry], after: [CSSRuleSet.Entry]) =
            rules.isEmpty ? ([], [], []) : rules.matching(element, ancestors: ancestors)
        var declarations: [CSSDeclaration] = []
        for important in [false, true] {
            for entry in matched.own {
                for declaration in rules.blocks[Int(entry.block)] where declaration.important == important {
                    declarations.append(declaration)
                }
            }
            for declaration in styleAttribute where declaration.important == important {
                declarations.append(declaration)
            }
        }
        var style = CSSElementStyle(inherited: parent)
        guard !declarations.isEmpty || !matched.before.isEmpty || !matched.after.isEmpty else { return style }
        var custom = parent.custom
        var customChanged = false
        for declaration in declarations where declaration.name.hasPrefix("--") {
            custom[declaration.name] = declaration.value
            customChanged = true
        }
        var inherited = Inherited(hidden: parent.hidden, transform: parent.transform, noListMarker: parent.noListMarker)
        for declaration in declarations where !declaration.name.hasPrefix("--") {
            guard let value = substitute(declaration.value, custom: custom, depth: 0) else { continue }
            apply(declaration.name, value, to: &style, inherited: &inherited, parent: parent)
        }
        if customChanged || inherited.hidden != parent.hidden || inherited.transform != parent.transform
            || inherited.noListMarker != parent.noListMarker {
            style.inherited = CSSInherited(hidden: inherited.hidden, transform: inherited.transform,
                                           noListMarker: inherited.noListMarker, custom: custom)
        }
        style.before = content(matched.before, rules: rules, element: element, custom: custom)
        style.after = content(matched.after, rules: rules, element: element, custom: custom)
        return style
    }

    /// The `content` a pseudo-element ends up with: its strings (and `attr()`), with icon-font glyphs from the
    /// Private Use Area left out; nil for `none`, `normal`, or anything else (counters, images).
    private static func content<E: CSSElement>(_ entries: [CSSRuleSet.Entry], rules: CSSRuleSet, element: E,
                                               custom: [String: [CSSComponent]]) -> String? {
        guard !entries.isEmpty else { return nil }
        var winner: [CSSComponent]?
        var winnerImportant = false
        for entry in entries {
            for declaration in rules.blocks[Int(entry.block)] where declaration.name == "content" {
                if declaration.important || !winnerImportant {
                    winner = declaration.value
                    winnerImportant = declaration.important
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
            case .function(let name, let arguments) where name.lowercased() == "var":
                var parts = arguments.trimmingWhitespace[...]
                guard case .token(.ident(let variable))? = parts.popFirst(), variable.hasPrefix("--") else { return nil }
                while parts.first == .token(.whitespace) { parts = parts.dropFirst() }
                var fallback: [CSSComponent]?
                if parts.first == .token(.comma) { fallback = Array(parts.dropFirst()).trimmingWhitespace }
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

    private static func containsVar(_ component: CSSComponent) -> Bool {
        switch component {
        case .function(let name, let arguments): return name.lowercased() == "var" || arguments.contains(where: containsVar)
        case .block(_, let contents): return contents.contains(where: containsVar)
        case .token: return false
        }
    }

    // MARK: Properties

    /// The properties `apply` reads, and `content` for pseudo-elements; custom properties feed `var()`.
    static let usedProperties: Set<String> = [
        "display", "visibility", "font-weight", "font-style", "font-family", "font", "white-space", "text-align",
        "list-style-type", "list-style", "text-transform", "content", "text-decoration", "text-decoration-line",
        "color", "background-color", "background",
    ]

    static func isUsed(_ name: String) -> Bool { name.hasPrefix("--") || usedProperties.contains(name) }

    private static func keywords(_ value: [CSSComponent]) -> [String] {
        value.compactMap { component in
            if case .token(.ident(let word)) = component { return word.lowercased() }
            return nil
        }
    }

    /// One declaration's effect. Unknown properties and values are ignored, as CSS asks (CSS 2.1 §4.2).
    private struct Inherited {
        var hidden: Bool
        var transform: CSSTextTransform
        var noListMarker: Bool
    }

    private static func apply(_ name: String, _ value: [CSSComponent], to style: inout CSSElementStyle,
                              inherited: inout Inherited, parent: CSSInherited) {
        let words = keywords(value)
        let single = words.count == 1 && value.trimmingWhitespace.count == 1 ? words[0] : nil
        switch name {
        case "display":
            // Display 3's one- and two-keyword forms: the inner keyword (flex, grid, flow-root) makes a block.
            let set = Set(words)
            if set.contains("none") { style.display = CSSDisplay.none }
            else if set.contains("contents") { style.display = .contents }
            else if set.contains("list-item") { style.display = .listItem }
            else if set.contains(where: { $0.hasPrefix("table-") || $0 == "table" }) { style.display = .tablePart }
            else if set.contains("inline-block") || set.contains("inline-flex") || set.contains("inline-grid")
                        || set.contains("inline-table") { style.display = .inlineBlock }
            else if set.contains("inline") { style.display = set.count == 1 ? .inline : .inlineBlock }
            else if !set.isDisjoint(with: ["block", "flex", "grid", "flow-root"]) { style.display = .block }
        case "visibility":
            switch single {
            case "hidden", "collapse": inherited.hidden = true
            case "visible": inherited.hidden = false
            case "inherit", "unset": inherited.hidden = parent.hidden
            case "initial": inherited.hidden = false
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
            if words.contains("none") { inherited.noListMarker = true }
            else if words == ["inherit"] || words == ["unset"] { inherited.noListMarker = parent.noListMarker }
            else if !words.isEmpty && name == "list-style-type" { inherited.noListMarker = false }
        case "text-decoration", "text-decoration-line":
            // The shorthand's other parts (style, colour, thickness) leave the lines as the value lists them;
            // `overline` and `blink` are not drawn here.
            guard !words.isEmpty || name == "text-decoration", words != ["inherit"], words != ["revert"] else { break }
            style.underline = words.contains("underline")
            style.strikethrough = words.contains("line-through")
        case "color", "background-color", "background":
            // A `background` with an image or more than a colour is not read: what it paints is unknown here.
            guard let color = CSSColor.parse(value) else { break }
            if name == "color" { style.color = color.packed } else { style.background = color.packed }
        case "text-transform":
            switch single {
            case "uppercase": inherited.transform = .uppercase
            case "lowercase": inherited.transform = .lowercase
            case "capitalize": inherited.transform = .capitalize
            case "none", "initial": inherited.transform = .none
            default: break
            }
        default:
            break
        }
    }
}
