import FoundationEssentials
import Glibc

/// A page's link targets, each once, in order of first appearance: one UTF-8 buffer of their text and where each
/// ends. A page of a million links is a million short strings; held as Foundation `URL`s (a parsed object each,
/// about 220 bytes) with a dictionary to find each again, they were most of such a page's memory and put `--dump`
/// above w3m's. Here a link costs its bytes and a word, and a `URL` is made only when one is asked for (a hover,
/// a click, Back to a place in the page).
package struct LinkTable: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    /// While links are added: open addressing over `ends`, each slot 0 (empty) or an index + 1, at most half
    /// full. `sealed()` lets it go.
    private var slots: [Int] = []

    package init() {}

    package var count: Int { ends.count }
    package var isEmpty: Bool { ends.isEmpty }
    package var indices: Range<Int> { 0..<ends.count }

    /// The text of link `index`.
    package func string(at index: Int) -> String {
        String(decoding: bytes[range(of: index)], as: UTF8.self)
    }

    /// Link `index` as a URL; nil for an index not in the table. The text was a URL's own, so it parses again.
    package subscript(index: Int) -> URL? {
        guard indices.contains(index) else { return nil }
        return URL(string: string(at: index))
    }

    /// Bytes the table holds (its buffers' capacities), for the memory tests.
    package var modelBytes: Int {
        bytes.capacity + (ends.capacity + slots.capacity) * MemoryLayout<Int>.stride
    }

    /// Every link's text, in order.
    package var strings: [String] { indices.map(string(at:)) }

    /// The bytes of link `index`, without making a string.
    func withBytes<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let range = range(of: index)
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The index of the link whose text is `string`, if there is one.
    package func firstIndex(of string: String) -> Int? {
        let wanted = Array(string.utf8)
        return indices.first { bytes[range(of: $0)].elementsEqual(wanted) }
    }

    /// Whether link `index` here and link `other` of `table` have the same text.
    package func same(_ index: Int, as other: Int, in table: LinkTable) -> Bool {
        guard indices.contains(index), table.indices.contains(other) else { return false }
        return bytes[range(of: index)].elementsEqual(table.bytes[table.range(of: other)])
    }

    /// The index of `string`, added at the end when it is not in the table yet.
    package mutating func insert(_ string: String) -> Int {
        var string = string
        return string.withUTF8 { insert($0) }
    }

    mutating func insert(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        if slots.count < 2 * (ends.count + 1) { rehash(capacity: max(16, 4 * (ends.count + 1))) }
        let mask = slots.count - 1
        var slot = Self.hash(text) & mask
        while slots[slot] != 0 {
            let index = slots[slot] - 1
            if holds(index, text) { return index }
            slot = (slot + 1) & mask
        }
        bytes.append(contentsOf: text)
        ends.append(bytes.count)
        slots[slot] = ends.count
        return ends.count - 1
    }

    /// The table without what finding links again needs: for a finished page.
    package func sealed() -> LinkTable {
        var table = self
        table.slots = []
        // Arrays grown by appending have up to twice their size: a finished page's are copied to their size.
        table.bytes = Self.fitted(table.bytes)
        table.ends = Self.fitted(table.ends)
        return table
    }

    /// `array` in a buffer of about its size (`Array(array[...])` would share the grown one).
    private static func fitted<Element>(_ array: [Element]) -> [Element] {
        guard array.capacity > array.count + array.count / 8 else { return array }
        var copy: [Element] = []
        copy.reserveCapacity(array.count)
        copy.append(contentsOf: array)
        return copy
    }

    /// Whether link `index` is `text`, compared with `memcmp` (an `ArraySlice`'s `elementsEqual` went byte by byte
    /// through its generic iterator: a third of the cost of adding a link).
    private func holds(_ index: Int, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let range = range(of: index)
        guard range.count == text.count else { return false }
        guard let wanted = text.baseAddress else { return true }
        return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + range.lowerBound, wanted, range.count) == 0 }
    }

    private func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    private mutating func rehash(capacity: Int) {
        var size = 16
        while size < capacity { size *= 2 }
        slots = Array(repeating: 0, count: size)
        let mask = size - 1
        bytes.withUnsafeBufferPointer { all in
            for index in ends.indices {
                let start = index == 0 ? 0 : ends[index - 1]
                var slot = Self.hash(UnsafeBufferPointer(rebasing: all[start..<ends[index]])) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = index + 1
            }
        }
    }

    private static func hash(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(text))
        return hasher.finalize()
    }
}

extension LinkTable: Equatable {
    package static func == (a: LinkTable, b: LinkTable) -> Bool { a.ends == b.ends && a.bytes == b.bytes }
}
