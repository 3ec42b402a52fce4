import Foundation
import XCTest
@testable import GtkProgressCore

/// What real documentation hides with its stylesheets is gone from the dump: Sphinx's ¶ permalinks
/// (`a.headerlink { visibility: hidden }` in basic.css, from the python3 package's docs) and the pickers of
/// Node.js's API pages (`.picker { display: none }`, nodejs-doc; scripts/install-deps.sh test installs it).
final class CSSRealPageTests: XCTestCase {
    private func dump(_ path: String, styles: Bool) throws -> String {
        let url = URL(fileURLWithPath: path)
        let bytes = try [UInt8](Data(contentsOf: url))
        let loaded = LoadedPage(decoding: bytes, finalURL: url, status: 200, contentType: nil)
        let options = styles ? PageStyleOptions(fetch: { sheet in
            guard sheet.isFileURL, let data = try? Data(contentsOf: sheet) else { return .failure(.init("not local")) }
            return .success([UInt8](data))
        }) : .off
        return PageDump.render(loaded, width: 80, styles: options).text
    }

    func testSphinxPermalinksAreHidden() throws {
        let page = "/usr/share/doc/python3/python-policy.html"
        guard FileManager.default.fileExists(atPath: page) else {
            XCTFail("\(page) is missing: the python3 package installs it")
            return
        }
        let plain = try dump(page, styles: false)
        XCTAssertTrue(plain.contains("¶"), "the page has permalinks")
        let styled = try dump(page, styles: true)
        XCTAssertFalse(styled.contains("¶"))
        XCTAssertTrue(styled.contains("Debian Python Policy"))
    }

    func testNodePickersAreHidden() throws {
        let page = "/usr/share/doc/nodejs/api/addons.html"
        guard FileManager.default.fileExists(atPath: page) else {
            XCTFail("\(page) is missing: scripts/install-deps.sh test installs nodejs-doc")
            return
        }
        let plain = try dump(page, styles: false)
        // The "Other versions" picker lists the other releases' documentation (nodejs.org/docs/latest-vNN.x/…),
        // whatever release of nodejs-doc is installed.
        XCTAssertTrue(plain.contains("nodejs.org/docs/latest-v"), "the page has its version picker")
        let styled = try dump(page, styles: true)
        XCTAssertFalse(styled.contains("nodejs.org/docs/latest-v"))
        XCTAssertTrue(styled.contains("C++ addons"))
        XCTAssertTrue(styled.contains("Other versions"), "the picker's heading stays; its list goes")
    }
}
