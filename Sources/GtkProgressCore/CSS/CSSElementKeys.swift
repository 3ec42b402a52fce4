/// An element's type, id and class hashes (`CSSAncestorFilter.nameHash`), read from its attributes once for both
/// the rule set's lookups and the ancestor filter: each read of `class` is a scan of the attributes and of its
/// words, and an element was read so up to five times. Plain values, copied without counting references.
package struct CSSElementKeys {
    package var typeHash: UInt32
    package var idHash: UInt32?
    /// The first eight classes' hashes, each once (`class="a a"` names one class).
    private var classes: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var classCount: UInt8 = 0
    /// The element has more than eight classes: they are read from it again (`forEachClassHash`).
    private var moreClasses = false

    package init(typeHash: UInt32, idHash: UInt32?) {
        self.typeHash = typeHash
        self.idHash = idHash
    }

    /// The keys as the element's own `typeHash`, `idHash` and `forEachClassHash` give them.
    package init<E: CSSElement>(_ element: E) {
        self.init(typeHash: element.typeHash, idHash: element.idHash)
        element.forEachClassHash { addClass($0) }
    }

    /// A class's hash, unless the element already has it.
    package mutating func addClass(_ hash: UInt32) {
        guard !moreClasses else { return }
        let count = Int(classCount)
        let repeated = withUnsafeBytes(of: &classes) { raw in
            raw.bindMemory(to: UInt32.self).prefix(count).contains(hash)
        }
        if repeated { return }
        if count < 8 {
            withUnsafeMutableBytes(of: &classes) { $0.bindMemory(to: UInt32.self)[count] = hash }
            classCount += 1
        } else {
            moreClasses = true
        }
    }

    /// Each of `element`'s classes' hashes once (these keys are `element`'s).
    package func forEachClassHash<E: CSSElement>(of element: E, _ body: (UInt32) -> Void) {
        if moreClasses {
            var seen: Set<UInt32> = []
            element.forEachClassHash { hash in
                if seen.insert(hash).inserted { body(hash) }
            }
            return
        }
        var copy = classes
        let count = Int(classCount)
        withUnsafeBytes(of: &copy) { raw in
            for hash in raw.bindMemory(to: UInt32.self).prefix(count) { body(hash) }
        }
    }
}
