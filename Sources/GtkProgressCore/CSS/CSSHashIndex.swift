/// A map from 64-bit keys that are hashes already (`CSSAncestorFilter.nameHash`, filter slots) to small
/// integers: open addressing with linear probing and a multiplicative mix, so a lookup is a multiply and a few
/// reads rather than a SipHash of the key, as Swift's `Dictionary` does. The rule set looks one up several times
/// per element.
struct CSSHashIndex: Sendable {
    private var keys: [UInt64] = []
    private var values: [Int32] = []
    private var used: [Bool] = []
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { count == 0 }

    private static func slot(_ key: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 29) & mask
    }

    subscript(key: UInt64) -> Int32? {
        guard count > 0 else { return nil }
        let mask = keys.count - 1
        var slot = Self.slot(key, mask: mask)
        while used[slot] {
            if keys[slot] == key { return values[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    mutating func insert(_ key: UInt64, _ value: Int32) {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var slot = Self.slot(key, mask: mask)
        while used[slot] {
            if keys[slot] == key {
                values[slot] = value
                return
            }
            slot = (slot + 1) & mask
        }
        used[slot] = true
        keys[slot] = key
        values[slot] = value
        count += 1
    }

    private mutating func grow() {
        let old = (keys, values, used)
        let capacity = max(16, keys.count * 2)
        keys = [UInt64](repeating: 0, count: capacity)
        values = [Int32](repeating: 0, count: capacity)
        used = [Bool](repeating: false, count: capacity)
        count = 0
        for slot in old.0.indices where old.2[slot] { insert(old.0[slot], old.1[slot]) }
    }
}
