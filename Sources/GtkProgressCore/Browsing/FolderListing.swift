import FoundationEssentials

/// The page a `file:` folder shows, as file managers and browsers list one: `..` to go up, then the folders, then
/// the files, each sorted by name (case ignored), with its size and when it was last changed.
package enum FolderListing {
    package struct Item: Sendable, Equatable {
        package var name: String
        package var isFolder: Bool
        /// Bytes, for a file.
        package var size: Int64?
        /// When it last changed, as the reader's clock says it ("2026-11-24 05:12"); empty when unknown.
        package var modified: String

        package init(name: String, isFolder: Bool, size: Int64?, modified: String) {
            self.name = name
            self.isFolder = isFolder
            self.size = size
            self.modified = modified
        }
    }

    /// The order of the listing: folders first, then by name ignoring case, then by name.
    package static func sorted(_ items: [Item]) -> [Item] {
        items.sorted { a, b in
            if a.isFolder != b.isFolder { return a.isFolder }
            let (x, y) = (a.name.lowercased(), b.name.lowercased())
            return x != y ? x < y : a.name < b.name
        }
    }

    /// The listing page of `folder` (a `file:` URL). `omitted` items were past the most listed.
    package static func html(folder: URL, items: [Item], omitted: Int = 0) -> String {
        let path = folder.path.isEmpty ? "/" : folder.path
        let title = L("Index of %@", path)
        var out = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>\(GeneratedPages.escape(title))</title>"
            + "</head><body><h1>\(GeneratedPages.escape(title))</h1>\n<table><tr><th>\(GeneratedPages.escape(L("Name")))"
            + "</th><th>\(GeneratedPages.escape(L("Size")))</th><th>\(GeneratedPages.escape(L("Modified")))</th></tr>\n"
        let base = URL(fileURLWithPath: path, isDirectory: true)
        if path != "/" {
            let up = base.deletingLastPathComponent()
            out += "<tr><td><a href=\"\(GeneratedPages.escape(up.absoluteString))\">..</a></td><td>"
                + GeneratedPages.escape(L("folder above")) + "</td><td></td></tr>\n"
        }
        for item in sorted(items) {
            let target = base.appendingPathComponent(item.name, isDirectory: item.isFolder)
            let name = item.isFolder ? item.name + "/" : item.name
            let size = item.isFolder ? L("folder") : item.size.map { ByteCount.size(max($0, 0)) } ?? ""
            out += "<tr><td><a href=\"\(GeneratedPages.escape(target.absoluteString))\">\(GeneratedPages.escape(name))"
                + "</a></td><td>\(GeneratedPages.escape(size))</td><td>\(GeneratedPages.escape(item.modified))</td></tr>\n"
        }
        out += "</table>\n"
        if items.isEmpty { out += "<p>\(GeneratedPages.escape(L("This folder is empty.")))</p>\n" }
        if omitted > 0 {
            out += "<p>" + GeneratedPages.escape(LN("%ld more item is not listed.", "%ld more items are not listed.",
                                                     omitted, omitted)) + "</p>\n"
        }
        return out + "</body></html>\n"
    }
}
