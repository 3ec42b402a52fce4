/// Several addresses at once (a drop, the command line, a second launch): each opens in a window of its own, up to
/// `windowsAtOnce`. Six hundred addresses once opened six hundred windows, each holding descriptors, until the
/// process ran out of them and every window was lost.
package struct ManyAddresses<Address> {
    /// The most windows one drop or one command line opens.
    package static var windowsAtOnce: Int { 20 }

    /// The addresses that open, in the order given.
    package let opened: [Address]
    /// How many were given in all.
    package let total: Int

    package init(_ addresses: [Address], limit: Int = ManyAddresses.windowsAtOnce) {
        opened = Array(addresses.prefix(max(limit, 1)))
        total = addresses.count
    }

    /// What the status line says when some were left out; nil when all of them open.
    package var notice: String? {
        guard total > opened.count else { return nil }
        let left = total - opened.count
        return LN("Opened the first %ld of %ld addresses, a window each; the other one was not opened.",
                  "Opened the first %ld of %ld addresses, a window each; the other %ld were not opened.",
                  left, opened.count, total, left)
    }
}
