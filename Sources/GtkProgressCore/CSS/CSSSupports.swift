/// `@supports` conditions (CSS Conditional 3 §6, with `selector()` from Conditional 4): true for a declaration
/// this engine acts on (a property the cascade reads, with a value it understands), false for any other, as a
/// browser without that feature answers; `selector()` is true for what `CSSSelector` reads. A condition that
/// does not follow the grammar makes the rule invalid (nil), and its block is skipped.
enum CSSSupports {
    static func evaluate(_ prelude: [CSSComponent]) -> Bool? { condition(prelude) }

    /// `not <in-parens>`, or `<in-parens>` joined by only `and` or only `or`.
    private static func condition(_ components: [CSSComponent]) -> Bool? {
        let items = components.filter { !$0.isWhitespace }
        guard let first = items.first else { return nil }
        if case .token(.ident(let word)) = first, word.lowercased() == "not" {
            guard items.count == 2, let value = inParens(items[1]) else { return nil }
            return !value
        }
        guard items.count % 2 == 1, var result = inParens(first) else { return nil }
        var joiner: String?
        for index in stride(from: 1, to: items.count, by: 2) {
            guard case .token(.ident(let word)) = items[index] else { return nil }
            let lower = word.lowercased()
            guard lower == "and" || lower == "or", joiner == nil || joiner == lower,
                  let value = inParens(items[index + 1]) else { return nil }
            joiner = lower
            result = lower == "and" ? result && value : result || value
        }
        return result
    }

    private static func inParens(_ component: CSSComponent) -> Bool? {
        switch component {
        case .block(.openParen, let contents):
            if let nested = condition(contents) { return nested }
            if let declaration = declaration(contents) { return declaration }
            return false  // <general-enclosed>: not known to be supported
        case .function(let name, let arguments):
            if name.lowercased() == "selector" { return CSSSelector.parse(arguments) != nil }
            return false  // <general-enclosed>
        default:
            return nil
        }
    }

    /// `name: value`, answered for the engine's own properties; nil when it is not a declaration.
    private static func declaration(_ contents: [CSSComponent]) -> Bool? {
        var parts = contents.trimmingWhitespace[...]
        guard case .token(.ident(let rawName))? = parts.popFirst() else { return nil }
        while parts.first?.isWhitespace == true { parts = parts.dropFirst() }
        guard parts.popFirst()?.isToken(.colon) == true else { return nil }
        let value = Array(parts).trimmingWhitespace
        guard !value.isEmpty else { return nil }
        if rawName.hasPrefix("--") { return true }
        let name = rawName.lowercased()
        guard CSSCascade.usedProperties.contains(name) else { return false }
        if name == "content" || value.contains(where: CSSCascade.containsVar) { return true }
        return !CSSCascade.effect(name, value).isEmpty
    }
}
