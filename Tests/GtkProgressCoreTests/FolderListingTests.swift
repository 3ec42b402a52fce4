import Foundation
@testable import GtkProgressCore
import XCTest

final class FolderListingTests: XCTestCase {
    func testFoldersFirstByNameWithUpAndEscapedNames() {
        let items = [
            FolderListing.Item(name: "b.txt", isFolder: false, size: 1536, modified: "2026-01-02 03:04"),
            FolderListing.Item(name: "Zed", isFolder: true, size: nil, modified: ""),
            FolderListing.Item(name: "a <&> \"b\".html", isFolder: false, size: 3, modified: ""),
            FolderListing.Item(name: "alpha", isFolder: true, size: nil, modified: ""),
        ]
        XCTAssertEqual(FolderListing.sorted(items).map(\.name), ["alpha", "Zed", "a <&> \"b\".html", "b.txt"])
        let html = FolderListing.html(folder: URL(fileURLWithPath: "/tmp/x y"), items: items, omitted: 2)
        XCTAssertTrue(html.contains("<title>Index of /tmp/x y</title>"), html)
        XCTAssertTrue(html.contains("href=\"file:///tmp/\">..</a>"), "up to the parent")
        XCTAssertTrue(html.contains("href=\"file:///tmp/x%20y/alpha/\">alpha/</a>"), html)
        XCTAssertTrue(html.contains("a &lt;&amp;&gt; &quot;b&quot;.html</a>"), "names escaped")
        XCTAssertTrue(html.contains("1.5 KB") && html.contains("2026-01-02 03:04"))
        XCTAssertTrue(html.contains("2 more items are not listed."))
        XCTAssertFalse(FolderListing.html(folder: URL(fileURLWithPath: "/"), items: []).contains(">..</a>"),
                       "no way up from the root")
        XCTAssertTrue(FolderListing.html(folder: URL(fileURLWithPath: "/"), items: []).contains("This folder is empty."))
    }
}
