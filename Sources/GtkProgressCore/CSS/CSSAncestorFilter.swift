/// The ids, classes and types of the element being styled's ancestors, as counts in a small hash table: Blink's
/// "selector filter" (`third_party/blink/renderer/core/css/selector_filter.h`). A rule whose selector needs an
/// ancestor with, say, class `nav` is skipped at once when no ancestor has it, so a page with thousands of
/// `.x .y a` rules costs a few table reads per rule, not a walk up the tree for each. A hash collision only lets a
/// rule through to the full match: it never rejects one that applies.
package struct CSSAncestorFilter: Sendable {
    private static let bits = 14
    private var counts = [UInt32](repeating: 0, count: 1 << bits)
    /// The hashes whose count is above zero, each once, and where each stands in that list: the rule set looks
    /// rules up by the ancestors present when that is cheaper than testing each rule against the counts.
    private(set) var present: [Int] = []
    private var positions = [Int32](repeating: -1, count: 1 << bits)

    /// The slots some rule asks about (`CSSRuleSet.neededSlots`), when the filter serves one rule set: a hash no
    /// rule needs is never looked up, so counting it would only cost its add and its removal. Nil counts every one.
    private var kept: SlotSet?

    package init() {}

    /// A filter that counts only the slots in `slots`: it answers as an unrestricted one does for those.
    package init(keeping slots: SlotSet) { kept = slots }

    /// A filter without its tables (two of 64 KB, zeroed and so touched page by page), for a walk with no rules
    /// to match: nothing may be pushed onto it or looked up in it.
    private init(unallocated: ()) {
        counts = []
        positions = []
    }

    package static var unallocated: CSSAncestorFilter { CSSAncestorFilter(unallocated: ()) }

    /// A set of filter slots, one bit each.
    package struct SlotSet: Sendable {
        private var words = [UInt64](repeating: 0, count: (1 << CSSAncestorFilter.bits) / 64)

        package init() {}

        mutating func insert(_ slot: Int) { words[slot >> 6] |= 1 << UInt64(slot & 63) }

        func contains(_ slot: Int) -> Bool { words[slot >> 6] & 1 << UInt64(slot & 63) != 0 }
    }

    /// FNV-1a over a name's UTF-8: how the rule set files ids, classes and types, and, reduced, the filter's slot.
    package static func nameHash<S: Sequence>(_ bytes: S) -> UInt32 where S.Element == UInt8 {
        var h: UInt32 = 2_166_136_261
        for byte in bytes { h = (h ^ UInt32(byte)) &* 16_777_619 }
        return h
    }

    /// The filter's slot for a name of a kind (id, class, type) whose `nameHash` is `name`.
    package static func hash(kind: UInt8, name: UInt32) -> Int {
        let mixed = (name ^ (UInt32(kind) &* 0x9E37_79B9)) &* 0x85EB_CA6B
        return Int((mixed >> 15 ^ mixed) & ((1 << bits) - 1))
    }

    package static func hash<S: Sequence>(kind: UInt8, _ bytes: S) -> Int where S.Element == UInt8 {
        hash(kind: kind, name: nameHash(bytes))
    }

    package static let idKind: UInt8 = 1, classKind: UInt8 = 2, typeKind: UInt8 = 3

    /// The counts and the present hashes, read in place by the rule set while it matches one element.
    func withStorage<R>(_ body: (UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<Int>) -> R) -> R {
        counts.withUnsafeBufferPointer { counts in present.withUnsafeBufferPointer { present in body(counts, present) } }
    }

    package mutating func add(_ hash: Int) {
        if counts[hash] == 0 {
            positions[hash] = Int32(present.count)
            present.append(hash)
        }
        counts[hash] &+= 1
    }

    package mutating func remove(_ hash: Int) {
        guard counts[hash] > 0 else { return }
        counts[hash] -= 1
        if counts[hash] == 0 {
            let position = Int(positions[hash])
            let last = present.removeLast()
            if position < present.count {
                present[position] = last
                positions[last] = Int32(position)
            }
            positions[hash] = -1
        }
    }
    package func mayContain(_ hash: Int) -> Bool { counts[hash] > 0 }

    /// What `push` added, in order, so that `pop` takes the same out without the caller keeping a list.
    private var pushed: [Int] = []

    /// Adds an element's type, id and classes as an ancestor; returns how many hashes that was, for `pop`.
    package mutating func push<E: CSSElement>(_ element: E) -> Int {
        push(element, keys: CSSElementKeys(element))
    }

    /// `push` with the element's keys read already.
    package mutating func push<E: CSSElement>(_ element: E, keys: CSSElementKeys) -> Int {
        // Each hash counted as it is found (no second pass over a slice of `pushed`).
        let start = pushed.count
        let type = Self.hash(kind: Self.typeKind, name: keys.typeHash)
        if kept?.contains(type) ?? true {
            pushed.append(type)
            add(type)
        }
        if let id = keys.idHash {
            let hash = Self.hash(kind: Self.idKind, name: id)
            if kept?.contains(hash) ?? true {
                pushed.append(hash)
                add(hash)
            }
        }
        keys.forEachClassHash(of: element) { name in
            let hash = Self.hash(kind: Self.classKind, name: name)
            if kept?.contains(hash) ?? true {
                pushed.append(hash)
                add(hash)
            }
        }
        return pushed.count - start
    }

    /// Takes out the last `count` hashes pushed.
    package mutating func pop(_ count: Int) {
        for _ in 0..<min(count, pushed.count) { remove(pushed.removeLast()) }
    }

    /// The hashes an element adds: its type, id and each class.
    package static func hashes<E: CSSElement>(of element: E) -> [Int] {
        var hashes = [hash(kind: typeKind, name: element.typeHash)]
        if let id = element.idHash { hashes.append(hash(kind: idKind, name: id)) }
        element.forEachClassHash { hashes.append(hash(kind: classKind, name: $0)) }
        return hashes
    }

    /// What a selector needs of the subject's ancestors: the ids, classes and types of the compounds joined to it
    /// by descendant and child combinators only through ancestors (a compound left of a sibling combinator is a
    /// sibling; those further left are still ancestors). At most a few, the most selective first.
    static func requirements(of selector: CSSSelector) -> [Int] {
        // Ids first, then classes, then types, each pass in the compounds' order; one array, no lists to join.
        var needs: [Int] = []
        for kind in idKind...typeKind {  // 1, 2, 3: ids, classes, types
            for index in 1..<max(selector.compounds.count, 1) {
                switch selector.combinators[index - 1] {
                case .descendant, .child: break
                case .nextSibling, .subsequentSibling: continue
                }
                for simple in selector.compounds[index].simples {
                    switch simple {
                    case .id(let id) where kind == idKind: needs.append(hash(kind: idKind, id.utf8))
                    case .className(let name) where kind == classKind: needs.append(hash(kind: classKind, name.utf8))
                    case .type(let name) where kind == typeKind: needs.append(hash(kind: typeKind, name.utf8))
                    default: continue
                    }
                    if needs.count == 4 { return needs }
                }
            }
        }
        return needs
    }
}
