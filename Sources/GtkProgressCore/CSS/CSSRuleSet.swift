/// A page's author style rules, indexed as browsers' rule sets are (Blink's RuleSet, WebKit's RuleSet): each
/// selector under its subject's id, else one of its classes, else its type, else in the universal list. An element
/// looks only at the lists for its own id, classes and type, so matching costs about the rules that could apply,
/// not all of them.
package struct CSSRuleSet: Sendable {
    /// What the matcher reads of a selector before testing it: plain values only, so that reading an entry for
    /// each candidate of each element copies no array and counts no reference. The selector itself is
    /// `selectors[index]`.
    package struct Entry: Sendable {
        /// Index into `blocks`.
        package var block: Int32
        /// Source order across all sheets, for the cascade.
        package var order: Int32
        /// The cascade layer (index into `layerRanks`; 0 is outside every layer).
        package var layer: Int32
        package var specificity: Int32
        /// What the selector needs of the subject's ancestors (`CSSAncestorFilter.requirements`, at most four
        /// filter slots): the first `needCount` of `needs`.
        var needs: (Int32, Int32, Int32, Int32)
        var needCount: UInt8
        /// Whether the subject's place among its siblings or its children can change the answer
        /// (`CSSSelector.subjectDependsOnPosition`): then two alike siblings may not share a style.
        package var positional: Bool
        package var pseudoElement: CSSSelector.PseudoElement?
    }

    /// Every selector of every rule, in source order; the buckets hold indices into both.
    var entries: [Entry] = []
    var selectors: [CSSSelector] = []
    /// The entries filed under one id, class or type (or none). Those that need something of the ancestors are
    /// filed again under their most selective need (`CSSAncestorFilter.requirements`), so an element with 1,000
    /// `div.cN > p` rules for its type looks only at those whose `div.cN` is among its ancestors.
    struct Bucket: Sendable {
        var free: [Int32] = []
        /// The groups of entries by their first ancestor need: (filter slot, index into `groups`).
        var grouped: [(hash: Int, group: Int32)] = []
        /// One bit per filter slot modulo 1,024 that `grouped` holds: most present ancestors are ruled out by a
        /// bit test instead of a lookup.
        var ancestorBits: [UInt64] = []

        func mayHold(_ hash: Int) -> Bool { ancestorBits[(hash >> 6) & 15] & (1 << UInt64(hash & 63)) != 0 }
    }

    /// Keyed by `CSSAncestorFilter.nameHash`: two names with one hash share a bucket, and the selector's own
    /// test of the name sorts them out.
    var byID = CSSHashIndex()
    var byClass = CSSHashIndex()
    var byType = CSSHashIndex()
    /// The buckets the three indices point into; the first is the universal one.
    var buckets: [Bucket] = [Bucket()]
    /// Every filter slot some entry needs of its ancestors (`Entry.needs`): the only ones a filter for this rule
    /// set has to count (`CSSAncestorFilter.init(keeping:)`).
    package private(set) var neededSlots = CSSAncestorFilter.SlotSet()
    /// Lists of entries needing one ancestor, found by (bucket, filter slot) in `groupIndex`.
    var groups: [[Int32]] = []
    var groupIndex = CSSHashIndex()

    private static func groupKey(bucket: Int, hash: Int) -> UInt64 { UInt64(bucket) << 20 | UInt64(hash) }

    private mutating func append(_ index: Int32, to bucket: Int, requirements: [Int]) {
        guard let first = requirements.first else {
            buckets[bucket].free.append(index)
            return
        }
        let key = Self.groupKey(bucket: bucket, hash: first)
        if let group = groupIndex[key] {
            groups[Int(group)].append(index)
            return
        }
        let group = Int32(groups.count)
        groups.append([index])
        groupIndex.insert(key, group)
        buckets[bucket].grouped.append((first, group))
        if buckets[bucket].ancestorBits.isEmpty { buckets[bucket].ancestorBits = [UInt64](repeating: 0, count: 16) }
        buckets[bucket].ancestorBits[(first >> 6) & 15] |= 1 << UInt64(first & 63)
    }

    /// Each rule's declarations as written (for `content`), and as read once for the cascade.
    var blocks: [[CSSDeclaration]] = []
    var compiled: [[CSSCompiledDeclaration]] = []
    /// Whether a block sets a custom property or reads one with `var()`.
    var blockReadsOrSetsVariables: [Bool] = []
    private var nextOrder: Int32 = 0

    // MARK: Cascade layers (CSS Cascade 5 §6.4)

    /// At most this many layers; rules in layers past it are left out (real pages name a few dozen).
    package static let maximumLayers = 1_024
    /// Layer ids by full path (parts joined by NUL, which a name cannot hold: CSS Syntax 3 §3.3 reads it as
    /// U+FFFD). Id 0 is the root: what is outside every layer.
    private var layerIDs: [String: Int32] = ["": 0]
    private var layerChildren: [[Int32]] = [[]]
    /// Each layer's place in the cascade, low to high: a layer's sublayers in the order they were first
    /// declared, then the layer's own rules (§6.4.3: "unlayered" styles beat layered ones, at every level).
    private(set) var layerRanks: [Int32] = [0]
    private var layerRanksStale = false
    private var layerScopes = 0
    /// Rules left out because their layer was past `maximumLayers`.
    package private(set) var rulesInTooManyLayers = 0

    /// Whether any rule set so far declared a layer; without one the cascade skips layer order altogether.
    var hasLayers: Bool { layerChildren.count > 1 }

    /// A number that makes a sheet's anonymous layers (`#0`, `#1`…) its own: anonymous layers of two sheets, or
    /// of one sheet read twice, are distinct (§6.4.2.1).
    package mutating func newLayerScope() -> Int {
        layerScopes += 1
        return layerScopes
    }

    /// A sheet's layer path under `prefix` (the layer an `@import` put the sheet in), with its anonymous parts made
    /// unique by `scope`.
    package static func layerPath(_ path: [String], under prefix: [String], scope: Int) -> [String] {
        prefix + path.map { $0.hasPrefix("#") ? "#\(scope)\($0)" : $0 }
    }

    /// Declares a layer and the layers it sits in, when first named (§6.4.3: order of first declaration), and gives
    /// its id; nil past `maximumLayers`.
    @discardableResult
    package mutating func declareLayer(_ path: [String]) -> Int32? {
        var parent: Int32 = 0
        var key = ""
        for (index, part) in path.enumerated() {
            key += index == 0 ? part : "\u{0}" + part
            if let id = layerIDs[key] {
                parent = id
                continue
            }
            guard layerChildren.count < Self.maximumLayers else { return nil }
            let id = Int32(layerChildren.count)
            layerIDs[key] = id
            layerChildren.append([])
            layerChildren[Int(parent)].append(id)
            layerRanksStale = true
            parent = id
        }
        return parent
    }

    /// Numbers the layers in cascade order: post-order over the tree, so sublayers come before their parent and the
    /// root, the rules outside every layer, comes last. Run when a sheet declared new layers; a page has at most
    /// `maximumLayers` of them, so this costs at most that many passes over that many layers.
    private mutating func rankLayers() {
        guard layerRanksStale else { return }
        layerRanksStale = false
        layerRanks = [Int32](repeating: 0, count: layerChildren.count)
        var next: Int32 = 0
        var stack: [(layer: Int32, child: Int)] = [(0, 0)]
        while let (layer, child) = stack.last {
            let children = layerChildren[Int(layer)]
            if child < children.count {
                stack[stack.count - 1].child += 1
                stack.append((children[child], 0))
            } else {
                layerRanks[Int(layer)] = next
                next += 1
                stack.removeLast()
            }
        }
    }
    /// Rules whose selectors could not be read or use what is not supported: they never apply.
    package private(set) var unsupportedRules = 0
    /// Of those, the rules refused for a selector past `CSSSelector`'s length limits (a hostile page's 10,000-part
    /// selector): the page is told.
    package private(set) var rulesWithTooLongSelectors = 0
    package private(set) var ruleCount = 0
    /// Some selector reads an element's siblings (`CSSSelector.readsSiblings`).
    package private(set) var readsSiblings = false
    /// Some selector reads an element's siblings or whether it is `:empty` (`CSSSelector.readsStructure`): the
    /// elements the HTML prefilter folded into text must then be matched as elements of their own
    /// (`FoldedElements`).
    package private(set) var readsStructure = false
    /// Some rule for `p` elements (or for any element) sets `display` or has a `::before` or `::after`: neither passes
    /// from a `p` to the paragraphs the HTML prefilter folded into its text after it, so they too must then be
    /// matched as elements of their own (`FoldedElements`).
    package private(set) var stylesEachParagraph = false
    /// Every attribute name the selectors of the rules added test, each once, those left out for it included: what
    /// the HTML prefilter must keep for them to be answered (`MarkupPrefilter.prefilter`'s `keeping`).
    package private(set) var attributeNames: [String] = []
    /// `attributeNames` by a 64-bit FNV-1a of each name: two names that share one (never seen) would leave the
    /// second's rules out, not misapply them (`PrefilteredMarkup.answers` decides).
    private var attributeNameIndex = CSSHashIndex()

    private mutating func noteAttributeName(_ name: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        guard attributeNameIndex[hash] == nil else { return }
        attributeNameIndex.insert(hash, Int32(truncatingIfNeeded: attributeNames.count))
        attributeNames.append(name)
    }

    package init() {}

    package var isEmpty: Bool { blocks.isEmpty }

    /// Whether any rule could apply to an element of this type that has no id, class or attribute.
    package func mayApply(toType name: String) -> Bool {
        !buckets[0].free.isEmpty || !buckets[0].grouped.isEmpty
            || byType[UInt64(CSSAncestorFilter.nameHash(name.utf8))] != nil
    }

    /// Adds a sheet's rules after those already added (later sheets win ties, as in the cascade).
    /// `attributeKnown`: whether the elements keep an attribute of that name; a selector reading one they do not
    /// keep cannot be answered (`[aria-hidden]` would never match, `:not([data-x])` always), so it is left out
    /// (`PrefilteredMarkup.answers`).
    /// `layer`: the layer an `@import` put the sheet in; `scope`: from `newLayerScope`, the same one the sheet's
    /// imports were declared with (a new one when nil).
    package mutating func add(_ sheet: ParsedStyleSheet, attributeKnown: ((String) -> Bool)? = nil,
                              layer prefix: [String] = [], scope: Int? = nil) {
        let scope = scope ?? newLayerScope()
        let outside = prefix.isEmpty ? 0 : declareLayer(prefix)
        let layers = sheet.layers.map { declareLayer(Self.layerPath($0, under: prefix, scope: scope)) }
        defer { rankLayers() }
        for rule in sheet.rules {
            guard ruleCount < CSSParser.maximumRules else { return }
            ruleCount += 1
            guard let layer = rule.layer < 0 ? outside : layers[Int(rule.layer)] else {
                rulesInTooManyLayers += 1
                continue
            }
            // A rule the parser kept no declaration of (it reads only the used properties): nothing to add.
            guard !rule.declarations.isEmpty else { continue }
            // Only the properties the document model acts on are kept: a rule of margins and colours costs
            // nothing to match, since it can change nothing here.
            let declarations = rule.declarations.filter { CSSCascade.isUsed($0.name) }
            guard !declarations.isEmpty else { continue }
            guard var selectors = CSSSelector.parseList(rule.prelude) else {
                unsupportedRules += 1
                if CSSSelector.exceedsLengthLimits(rule.prelude) { rulesWithTooLongSelectors += 1 }
                continue
            }
            // `a:hover`, `a:visited`: valid, and matching nothing here; a rule of only such is not kept at all.
            if selectors.contains(where: \.neverMatches) {
                selectors.removeAll(where: \.neverMatches)
                if selectors.isEmpty { continue }
            }
            let block = Int32(blocks.count)
            blocks.append(declarations)
            let readable = declarations.compactMap(CSSCascade.compile)
            compiled.append(readable)
            blockReadsOrSetsVariables.append(readable.contains { $0.readsOrSetsVariables })
            let setsDisplay = declarations.contains { $0.name == "display" }
            for selector in selectors {
                selector.forEachAttributeName { noteAttributeName($0) }
                if let attributeKnown, !selector.attributeNames(allSatisfy: attributeKnown) {
                    unsupportedRules += 1
                    continue
                }
                let needs = CSSAncestorFilter.requirements(of: selector)
                for slot in needs { neededSlots.insert(slot) }
                func need(_ k: Int) -> Int32 { k < needs.count ? Int32(needs[k]) : 0 }
                let entry = Entry(block: block, order: nextOrder, layer: layer,
                                  specificity: Int32(clamping: selector.specificity),
                                  needs: (need(0), need(1), need(2), need(3)), needCount: UInt8(needs.count),
                                  positional: selector.subjectDependsOnPosition, pseudoElement: selector.pseudoElement)
                nextOrder += 1
                if selector.readsSiblings { readsSiblings = true }
                if !readsStructure, selector.readsStructure { readsStructure = true }
                if !stylesEachParagraph, setsDisplay || selector.pseudoElement != nil,
                   selector.key == .type("p") || selector.key == .universal {
                    stylesEachParagraph = true
                }
                let index = Int32(entries.count)
                entries.append(entry)
                self.selectors.append(selector)
                let bucket: Int
                switch selector.key {
                case .id(let id): bucket = Self.bucket(for: id, in: &byID, buckets: &buckets)
                case .className(let name): bucket = Self.bucket(for: name, in: &byClass, buckets: &buckets)
                case .type(let name): bucket = Self.bucket(for: name, in: &byType, buckets: &buckets)
                case .universal: bucket = 0
                }
                append(index, to: bucket, requirements: needs)
            }
        }
    }

    /// The bucket a name is filed under, made when it is the first.
    private static func bucket(for name: String, in table: inout CSSHashIndex, buckets: inout [Bucket]) -> Int {
        let key = UInt64(CSSAncestorFilter.nameHash(name.utf8))
        if let index = table[key] { return Int(index) }
        buckets.append(Bucket())
        table.insert(key, Int32(buckets.count - 1))
        return buckets.count - 1
    }

    static let noAncestors = CSSAncestorFilter()

    /// The entries that matched an element, in cascade order, as indices into `entries`.
    package struct Matches {
        package init() {}
        var own: [Int32] = []
        var before: [Int32] = []
        var after: [Int32] = []
        /// False when a rule that reached the selector test depends on the element's place or children.
        var shareable = true
    }

    /// The rules that match `element`, in cascade order (specificity, then source order), for the element itself
    /// and for its `::before` and `::after`.
    /// With `ancestors`, rules whose ancestors cannot be there are skipped before matching.
    func matching<E: CSSElement>(_ element: E, ancestors: CSSAncestorFilter? = nil) -> Matches {
        if let ancestors { return matching(element, filter: ancestors, filtering: true) }
        return matching(element, filter: Self.noAncestors, filtering: false)
    }

    /// `matching` with the filter read in place, `filtering` false for an element whose ancestors are not known.
    /// (An optional filter made a copy of it, a retain and release of each of its arrays, for every element.)
    func matching<E: CSSElement>(_ element: E, filter: CSSAncestorFilter, filtering: Bool) -> Matches {
        var matches = Matches()
        match(element, filter: filter, filtering: filtering, into: &matches)
        return matches
    }

    /// `matching` into `matches`, emptied first with its lists' room kept: a caller styling element after element
    /// passes the same one, so the lists are not allocated and freed for each element that matches a rule.
    func match<E: CSSElement>(_ element: E, filter: CSSAncestorFilter, filtering: Bool, into matches: inout Matches) {
        match(element, keys: CSSElementKeys(element), filter: filter, filtering: filtering, into: &matches)
    }

    /// `match` with the element's keys read already.
    func match<E: CSSElement>(_ element: E, keys: CSSElementKeys, filter: CSSAncestorFilter, filtering: Bool,
                              into matches: inout Matches) {
        if !matches.own.isEmpty { matches.own.removeAll(keepingCapacity: true) }
        if !matches.before.isEmpty { matches.before.removeAll(keepingCapacity: true) }
        if !matches.after.isEmpty { matches.after.removeAll(keepingCapacity: true) }
        matches.shareable = true
        filter.withStorage { counts, present in
            entries.withUnsafeBufferPointer { entries in
                selectors.withUnsafeBufferPointer { selectors in
                    var scan = Scan(entries: entries, selectors: selectors, counts: counts, present: present,
                                    filtering: filtering)
                    if !byID.isEmpty, let id = keys.idHash, let bucket = byID[UInt64(id)] {
                        consider(bucket: bucket, element, &scan, &matches)
                    }
                    if !byClass.isEmpty {
                        // Each class once (`class="a a"` must not match `.a`'s rules twice): the keys hold each once.
                        keys.forEachClassHash(of: element) { hash in
                            if let bucket = byClass[UInt64(hash)] { consider(bucket: bucket, element, &scan, &matches) }
                        }
                    }
                    if !byType.isEmpty, let bucket = byType[UInt64(keys.typeHash)] {
                        consider(bucket: bucket, element, &scan, &matches)
                    }
                    consider(bucket: 0, element, &scan, &matches)
                    // Entry indices are source order, so ties in specificity keep it. Layers come before
                    // specificity (CSS Cascade 5 §6.1).
                    sort(&matches.own, entries)
                    sort(&matches.before, entries)
                    sort(&matches.after, entries)
                }
            }
        }
    }

    /// What `matching` reads for one element, in place.
    private struct Scan {
        let entries: UnsafeBufferPointer<Entry>
        let selectors: UnsafeBufferPointer<CSSSelector>
        let counts: UnsafeBufferPointer<UInt32>
        let present: UnsafeBufferPointer<Int>
        let filtering: Bool
    }

    private func consider<E: CSSElement>(bucket: Int32, _ element: E, _ scan: inout Scan, _ matches: inout Matches) {
        let bucket = Int(bucket)
        buckets.withUnsafeBufferPointer { buckets in
            if !buckets[bucket].free.isEmpty {
                buckets[bucket].free.withUnsafeBufferPointer { consider($0, element, &scan, &matches) }
            }
            guard !buckets[bucket].grouped.isEmpty else { return }
            if scan.filtering, scan.present.count < buckets[bucket].grouped.count {
                // Fewer ancestor names than groups: look each present one up.
                for hash in scan.present where buckets[bucket].mayHold(hash) {
                    if let group = groupIndex[Self.groupKey(bucket: bucket, hash: hash)] {
                        groups[Int(group)].withUnsafeBufferPointer { consider($0, element, &scan, &matches) }
                    }
                }
            } else {
                for (hash, group) in buckets[bucket].grouped where !scan.filtering || scan.counts[hash] > 0 {
                    groups[Int(group)].withUnsafeBufferPointer { consider($0, element, &scan, &matches) }
                }
            }
        }
    }

    private func consider<E: CSSElement>(_ list: UnsafeBufferPointer<Int32>, _ element: E, _ scan: inout Scan,
                                         _ matches: inout Matches) {
        for index in list {
            let entry = scan.entries[Int(index)]
            if scan.filtering, entry.needCount > 0 {
                let counts = scan.counts
                let needs = entry.needs
                if counts[Int(needs.0)] == 0 { continue }
                if entry.needCount > 1, counts[Int(needs.1)] == 0 { continue }
                if entry.needCount > 2, counts[Int(needs.2)] == 0 { continue }
                if entry.needCount > 3, counts[Int(needs.3)] == 0 { continue }
            }
            if entry.positional { matches.shareable = false }
            guard scan.selectors[Int(index)].matches(element) else { continue }
            switch entry.pseudoElement {
            case nil: matches.own.append(index)
            case .before?: matches.before.append(index)
            case .after?: matches.after.append(index)
            }
        }
    }

    private func sort(_ list: inout [Int32], _ entries: UnsafeBufferPointer<Entry>) {
        guard list.count > 1 else { return }
        if hasLayers {
            list.sort {
                (layerRanks[Int(entries[Int($0)].layer)], entries[Int($0)].specificity, $0)
                    < (layerRanks[Int(entries[Int($1)].layer)], entries[Int($1)].specificity, $1)
            }
        } else {
            list.sort { (entries[Int($0)].specificity, $0) < (entries[Int($1)].specificity, $1) }
        }
    }

    /// Matched entries (in `matching`'s order) in the order their `!important` declarations cascade: layers the
    /// other way round, earlier layers beating later ones and every layer beating the rules outside layers
    /// (CSS Cascade 5 §6.4.3), then specificity and source order as for normal declarations.
    func importantOrder(_ list: [Int32]) -> [Int32] {
        guard hasLayers, list.count > 1 else { return list }
        return list.sorted {
            let left = entries[Int($0)], right = entries[Int($1)]
            return (-layerRanks[Int(left.layer)], left.specificity, $0)
                < (-layerRanks[Int(right.layer)], right.specificity, $1)
        }
    }
}
