/// A page's author style rules, indexed as browsers' rule sets are (Blink's RuleSet, WebKit's RuleSet): each
/// selector under its subject's id, else one of its classes, else its type, else in the universal list. An element
/// looks only at the lists for its own id, classes and type, so matching costs about the rules that could apply,
/// not all of them.
package struct CSSRuleSet: Sendable {
    package struct Entry: Sendable {
        package var selector: CSSSelector
        /// Index into `blocks`.
        package var block: Int32
        /// Source order across all sheets, for the cascade.
        package var order: Int32
        /// What the selector needs of the subject's ancestors (`CSSAncestorFilter`).
        package var ancestorHashes: [Int]
    }

    var byID: [String: [Entry]] = [:]
    var byClass: [String: [Entry]] = [:]
    var byType: [String: [Entry]] = [:]
    var universal: [Entry] = []
    var blocks: [[CSSDeclaration]] = []
    private var nextOrder: Int32 = 0
    /// Rules whose selectors could not be read or use what is not supported: they never apply.
    package private(set) var unsupportedRules = 0
    package private(set) var ruleCount = 0

    package init() {}

    package var isEmpty: Bool { blocks.isEmpty }

    /// Whether any rule could apply to an element of this type that has no id, class or attribute.
    package func mayApply(toType name: String) -> Bool { !universal.isEmpty || byType[name] != nil }

    /// Adds a sheet's rules after those already added (later sheets win ties, as in the cascade).
    /// `attributeKnown`: whether the elements keep an attribute of that name; a selector reading one they do not
    /// keep cannot be answered (`[aria-hidden]` would never match, `:not([data-x])` always), so it is left out.
    package mutating func add(_ sheet: ParsedStyleSheet, attributeKnown: ((String) -> Bool)? = nil) {
        for rule in sheet.rules {
            guard ruleCount < CSSParser.maximumRules else { return }
            ruleCount += 1
            // Only the properties the document model acts on are kept: a rule of margins and colours costs
            // nothing to match, since it can change nothing here.
            let declarations = rule.declarations.filter { CSSCascade.isUsed($0.name) }
            guard !declarations.isEmpty else { continue }
            guard let selectors = CSSSelector.parseList(rule.prelude) else {
                unsupportedRules += 1
                continue
            }
            let block = Int32(blocks.count)
            blocks.append(declarations)
            for selector in selectors {
                if let attributeKnown, !selector.attributeNames.allSatisfy(attributeKnown) {
                    unsupportedRules += 1
                    continue
                }
                let entry = Entry(selector: selector, block: block, order: nextOrder,
                                  ancestorHashes: CSSAncestorFilter.requirements(of: selector))
                nextOrder += 1
                switch selector.key {
                case .id(let id): byID[id, default: []].append(entry)
                case .className(let name): byClass[name, default: []].append(entry)
                case .type(let name): byType[name, default: []].append(entry)
                case .universal: universal.append(entry)
                }
            }
        }
    }

    /// The rules that match `element`, in cascade order (specificity, then source order), for the element itself
    /// and for its `::before` and `::after`.
    /// With `ancestors`, rules whose ancestors cannot be there are skipped before matching.
    func matching<E: CSSElement>(_ element: E, ancestors: CSSAncestorFilter? = nil)
        -> (own: [Entry], before: [Entry], after: [Entry]) {
        var own: [Entry] = [], before: [Entry] = [], after: [Entry] = []
        func consider(_ entries: [Entry]) {
            for index in entries.indices {
                if let ancestors {
                    var possible = true
                    for hash in entries[index].ancestorHashes where !ancestors.mayContain(hash) {
                        possible = false
                        break
                    }
                    if !possible { continue }
                }
                let entry = entries[index]
                guard entry.selector.matches(element) else { continue }
                switch entry.selector.pseudoElement {
                case nil: own.append(entry)
                case .before?: before.append(entry)
                case .after?: after.append(entry)
                }
            }
        }
        if !byID.isEmpty, let id = element.elementID, let entries = byID[id] { consider(entries) }
        if !byClass.isEmpty {
            var seen: Set<String> = []
            for name in element.classNames where seen.insert(name).inserted {
                if let entries = byClass[name] { consider(entries) }
            }
        }
        if !byType.isEmpty, let entries = byType[element.localName] { consider(entries) }
        consider(universal)
        func sorted(_ entries: [Entry]) -> [Entry] {
            entries.count < 2 ? entries : entries.sorted {
                ($0.selector.specificity, $0.order) < ($1.selector.specificity, $1.order)
            }
        }
        return (sorted(own), sorted(before), sorted(after))
    }
}
