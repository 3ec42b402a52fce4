import Foundation
@testable import GtkProgressCore
import XCTest

/// Forms without a display: what the page's controls are, how `--dump` prints them (as `w3m -dump` does), and
/// what a submission sends (HTML's form submission algorithm, the urlencoded serializer).
final class FormTests: XCTestCase {
    static let baseURL = URL(string: "http://example.org/dir/page.html")!
    static let contact = """
        <form action="/contact?old=1#top" method="post">
        <p>Your name <input name="name" size="10" value="Ann Lee"> Email <input type="email" name="email"></p>
        <p>Password <input type="password" name="pw" value="abc"></p>
        <p><input type="checkbox" name="news" checked> Newsletter <input type="checkbox" name="spam" value="yes"> Spam</p>
        <p>Plan <select name="plan"><option>Free</option><option value="team" selected>Team</option>
        <optgroup label="More" disabled><option>Big</option></optgroup></select></p>
        <p><input type="radio" name="r" value="a" checked> A <input type="radio" name="r" value="b"> B</p>
        <textarea name="msg" rows="3" cols="12">
        Hello
        there</textarea>
        <input type="number" name="n" value="3"><input type="hidden" name="h" value="x &amp; y">
        <input name="off" value="no" disabled><input value="nameless">
        <button type="submit" name="go" value="send">Send message</button> <input type="reset"> <input type="button" value="Push">
        </form>
        """

    func testControlsAreReadWithTheirAttributes() {
        let document = Document.parse(html: Self.contact, baseURL: Self.baseURL)
        XCTAssertEqual(document.forms, [PageForm(action: "/contact?old=1#top", method: .post)])
        let names = document.controls.map(\.name)
        XCTAssertEqual(names, ["name", "email", "pw", "news", "spam", "plan", "r", "r", "msg", "n", "h", "off", "",
                               "go", "", ""])
        XCTAssertTrue(document.controls.allSatisfy { $0.form == 0 })
        // In the window each visible control is one U+FFFC its widget replaces; hidden ones have no place.
        let visible = document.controls.filter { $0.kind != .hidden }
        XCTAssertTrue(visible.allSatisfy { $0.offset != nil })
        XCTAssertNil(document.controls[10].offset)
        for control in visible {
            let offset = control.offset ?? 0
            XCTAssertEqual(Array(document.storage.bytes[offset..<offset + 3]), [0xEF, 0xBF, 0xBC])
        }
        XCTAssertEqual(document.controls[8].value, "Hello\nthere", "the first line break of a text area goes")
        XCTAssertEqual(document.controls[13].placeholder, "Send message")
        XCTAssertEqual(document.controls[3].value, "on")
    }

    func testDumpPrintsFieldsAsW3mDoes() {
        let document = Document.parse(html: Self.contact, baseURL: Self.baseURL, textMarks: true)
        XCTAssertEqual(document.dumpText(width: 80), """
            Your name [Ann Lee   ] Email [                    ]

            Password [***                 ]

            [*] Newsletter [ ] Spam

            Plan [Team]

            (*) A ( ) B

            [Hello       ]
            [there       ]
            [            ] [3                   ] [no                  ][nameless            ] [Send message] [RESET] [Push]

            """)
    }

    /// The same page through `w3m -dump`: every line the same but the last, where w3m wraps a line of fields
    /// at 80 columns (here a line holding a field is never rewrapped, so no field is cut in two) and prints a
    /// `<button>`'s label without brackets (here it is bracketed like every other button, so it reads as one).
    func testDumpMatchesW3mLineForLine() throws {
        let w3m = "/usr/bin/w3m"
        guard FileManager.default.isExecutableFile(atPath: w3m) else {
            XCTFail("w3m is missing: scripts/install-deps.sh test installs it")
            return
        }
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("gtkprogress-form-\(getpid()).html")
        try Data(Self.contact.utf8).write(to: page)
        defer { try? FileManager.default.removeItem(at: page) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: w3m)
        process.arguments = ["-dump", "-cols", "80", "-O", "UTF-8", "-T", "text/html", page.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        func trimmed(_ line: Substring) -> String {
            String(line.reversed().drop { $0 == " " }.reversed())
        }
        let theirs = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(trimmed)
        let ours = Document.parse(html: Self.contact, baseURL: page, textMarks: true).dumpText(width: 80)
            .split(separator: "\n", omittingEmptySubsequences: false).map(trimmed)
        XCTAssertGreaterThan(theirs.count, 12)
        XCTAssertEqual(Array(ours.prefix(12)), Array(theirs.prefix(12)))
        XCTAssertEqual(theirs[12] + theirs[13], "[            ] [3                   ] [no                  ]"
                       + "[nameless            ] Send message [RESET] [Push]")
    }

    func testPostSendsTheEntryListUrlencoded() throws {
        let document = Document.parse(html: Self.contact, baseURL: Self.baseURL)
        var state = FormState(controls: document.controls)
        state.values[0] = "Zoë & co+1"
        state.checked[4] = true
        state.choose(radio: 7)
        state.selected[5] = [0]
        let submission = try FormSubmission.make(document: document, state: state, form: 0, submitter: 13,
                                                 pageURL: Self.baseURL).get()
        XCTAssertEqual(submission.url.absoluteString, "http://example.org/contact?old=1#top")
        XCTAssertEqual(String(decoding: try XCTUnwrap(submission.body), as: UTF8.self),
                       "name=Zo%C3%AB+%26+co%2B1&email=&pw=abc&news=on&spam=yes&plan=Free&r=b"
                       + "&msg=Hello%0D%0Athere&n=3&h=x+%26+y&go=send")
        XCTAssertFalse(state.checked[6], "choosing one radio button unticks the others of its group")
        state.reset(form: 0)
        XCTAssertEqual(state, FormState(controls: document.controls))
    }

    func testGetReplacesTheQueryAndReturnSubmitsWithoutAButtonName() throws {
        let document = Document.parse(html: """
            <form action="search?stale=1"><input name="q" value="a b/c"><input type="submit" name="s" value="Go"></form>
            <form><input name="only"></form><form><input name="one"><input name="two"></form>
            """, baseURL: Self.baseURL)
        let state = FormState(controls: document.controls)
        let returnKey = try FormSubmission.make(document: document, state: state, form: 0, submitter: nil,
                                                pageURL: Self.baseURL).get()
        XCTAssertEqual(returnKey, FormSubmission(url: URL(string: "http://example.org/dir/search?q=a+b%2Fc")!,
                                                 body: nil))
        let clicked = try FormSubmission.make(document: document, state: state, form: 0, submitter: 1,
                                              pageURL: Self.baseURL).get()
        XCTAssertEqual(clicked.url.query, "q=a+b%2Fc&s=Go")
        // No action: the page's own address.
        XCTAssertEqual(try FormSubmission.make(document: document, state: state, form: 1, submitter: nil,
                                               pageURL: Self.baseURL).get().url.absoluteString,
                       "http://example.org/dir/page.html?only=")
        XCTAssertTrue(state.submitsImplicitly(form: 0))
        XCTAssertTrue(state.submitsImplicitly(form: 1), "one field alone submits on Return")
        XCTAssertFalse(state.submitsImplicitly(form: 2), "two fields and no button: Return does nothing")
    }

    /// A web page's form reaches no file, by GET (the link policy) or POST (refused here); other schemes are
    /// refused outright.
    func testFormsNeverReachLocalFilesFromTheWeb() throws {
        let document = Document.parse(html: """
            <form action="file:///etc/passwd" method="post"><input name="a"></form>
            <form action="file:///etc/passwd"><input name="a"></form>
            <form action="javascript:alert(1)"><input name="a"></form>
            """, baseURL: Self.baseURL)
        let state = FormState(controls: document.controls)
        XCTAssertEqual(FormSubmission.make(document: document, state: state, form: 0, submitter: nil,
                                           pageURL: Self.baseURL), .failure(.postToFile))
        let get = try FormSubmission.make(document: document, state: state, form: 1, submitter: nil,
                                          pageURL: Self.baseURL).get()
        XCTAssertNotNil(NavigationPolicy.refusal(for: get.url, source: .webPage))
        XCTAssertEqual(FormSubmission.make(document: document, state: state, form: 2, submitter: nil,
                                           pageURL: Self.baseURL), .failure(.unsupportedScheme("javascript")))
    }

    /// Controls of a `<form>` the parser left empty between a table's rows still belong to it.
    func testAFormAroundTableRowsOwnsItsControls() {
        let document = Document.parse(html: """
            <table><form action="/login" method="post"><tr><td><input name="user"></td></tr></form></table>
            """, baseURL: Self.baseURL)
        XCTAssertEqual(document.controls.map(\.form), [0])
        let hostile = Document.parse(html: "<input size=99999999999999999999 name=a><textarea rows=-5 cols=1e9>",
                                     baseURL: Self.baseURL)
        // `1e9` reads as 1, as HTML's rules for non-negative integers read it.
        XCTAssertEqual(hostile.controls.map(\.size), [200, 1])
    }

    /// A POST's answer remembers its form data: Reload asks before sending it again, and the page cache keeps
    /// it, so Back and Forward never send it again behind the reader's back.
    func testThePageAPostBroughtIsNotFetchedAgainWithoutAsking() throws {
        let model = NavigationModel<String>()
        let page = URL(string: "http://example.org/form")!
        guard case .load(let first) = model.navigate(to: page, kind: .typed) else { return XCTFail("loads") }
        model.commit(first, finalURL: page, title: "Form", page: "form page")
        let submission = FormSubmission(url: URL(string: "http://example.org/send")!, body: Array("a=1".utf8))
        guard case .load(let post) = model.submitForm(submission) else { return XCTFail("posts") }
        XCTAssertEqual(post.body, Array("a=1".utf8))
        XCTAssertEqual(post.url, submission.url)
        model.commit(post, finalURL: submission.url, title: "Thanks", page: "answer")
        XCTAssertEqual(model.current?.formBody, Array("a=1".utf8))
        guard case .confirmResend = model.reload() else { return XCTFail("Reload asks first") }
        XCTAssertFalse(model.isLoading, "asking starts nothing")
        guard case .load(let again) = model.reload(resendingForm: true) else { return XCTFail("the yes sends") }
        XCTAssertEqual(again.body, Array("a=1".utf8))
        model.commit(again, finalURL: submission.url, title: "Thanks", page: "answer again")
        // Pages far from the current one lose their cache; the answer to a form keeps it.
        guard case .load(let next) = model.navigate(to: URL(string: "http://example.org/next")!, kind: .link) else {
            return XCTFail("loads")
        }
        model.commit(next, finalURL: next.url, title: "Next", page: "next")
        model.trimCache(keeping: 0)
        XCTAssertNotNil(model.list.entries[1].page)
        XCTAssertNil(model.list.entries[0].page)
        guard case .showCached(let entry) = model.goBack() else { return XCTFail("Back shows the cached answer") }
        XCTAssertEqual(entry.page, "answer again")
        // A GET form is a link: no body, and no question on Reload.
        let get = FormSubmission(url: URL(string: "http://example.org/search?q=x")!, body: nil)
        guard case .load(let search) = model.submitForm(get) else { return XCTFail("GET loads") }
        XCTAssertNil(search.body)
        // A web page's form never reaches a file.
        XCTAssertNotNil({ if case .refused = model.submitForm(FormSubmission(url: URL(fileURLWithPath: "/etc/passwd"),
                                                                               body: [])) { return 1 }
                           return nil }() as Int?)
    }

    /// A control's name for a screen reader: the `<label>` around it, or the one that names its `id`.
    func testLabelsNameTheirControls() {
        let document = Document.parse(html: """
            <form><label>Find <b>words</b> <input name="q"></label>
            <label for="mail">Email</label> <input id="mail" name="m"><input name="bare">
            <label><input type="checkbox" name="c"> Send me the newsletter</label></form>
            """, baseURL: Self.baseURL)
        XCTAssertEqual(document.controls.map(\.label), ["Find words", "Email", nil, "Send me the newsletter"])
    }
}
