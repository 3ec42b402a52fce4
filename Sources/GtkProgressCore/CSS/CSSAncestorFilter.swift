/// The ids, classes and types of the element being styled's ancestors, as counts in a small hash table: Blink's
/// "selector filter" (`third_party/blink/renderer/core/css/selector_filter.h`). A rule whose selector needs an
/// ancestor with, say, class `nav` is skipped at once when no ancestor has it, so a page with thousands of
/// `.x .y a` rules costs a few table reads per rule, not a walk up the tree for each. A hash collision only lets a
/// rule through to the full match: it never rejects one that applies.
package struct CSSAncestorFilter: Sendable {
    private static let bits = 14
    private var counts = [UInt32](repeating: 0, count: 1 << bits)

    package init() {}

    /// FNV-1a over a kind byte (id, class, type) and the name's UTF-8.
    package static func hash<S: Sequence>(kind: UInt8, _ bytes: S) -> Int where S.Element == UInt8 {
        var h: UInt32 = 2_166_136_261
        h = (h ^ UInt32(kind)) &* 16_777_619
        for byte in bytes { h = (h ^ UInt32(byte)) &* 16_777_619 }
        return Int(h & ((1 << bits) - 1))
    }

    package static let idKind: UInt8 = 1, classKind: UInt8 = 2, typeKind: UInt8 = 3

    package mutating func add(_ hash: Int) { counts[hash] &+= 1 }
    package mutating func remove(_ hash: Int) { if counts[hash] > 0 { counts[hash] -= 1 } }
    package func mayContain(_ hash: Int) -> Bool { counts[hash] > 0 }

    /// The hashes an element adds: its type, id and each class.
    package static func hashes<E: CSSElement>(of element: E) -> [Int] {
        var hashes = [hash(kind: typeKind, element.localName.utf8)]
        if let id = element.elementID { hashes.append(hash(kind: idKind, id.utf8)) }
        for name in element.classNames { hashes.append(hash(kind: classKind, name.utf8)) }
        return hashes
    }

    /// What a selector needs of the subject's ancestors: the ids, classes and types of the compounds joined to it
    /// by descendant and child combinators only through ancestors (a compound left of a sibling combinator is a
    /// sibling; those further left are still ancestors). At most a few, the most selective first.
    static func requirements(of selector: CSSSelector) -> [Int] {
        var ids: [Int] = [], classes: [Int] = [], types: [Int] = []
        for index in 1..<max(selector.compounds.count, 1) {
            switch selector.combinators[index - 1] {
            case .descendant, .child: break
            case .nextSibling, .subsequentSibling: continue
            }
            for simple in selector.compounds[index].simples {
                switch simple {
                case .id(let id): ids.append(hash(kind: idKind, id.utf8))
                case .className(let name): classes.append(hash(kind: classKind, name.utf8))
                case .type(let name): types.append(hash(kind: typeKind, name.utf8))
                default: break
                }
            }
        }
        return Array((ids + classes + types).prefix(4))
    }
}
