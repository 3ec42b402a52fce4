internal import CGumbo

/// Inline stretches: the text, character references and simple phrasing elements that become one placeholder.
extension MarkupScanner {
    /// At text in the data state: gathers the longest stretch of inline content the builder can put back, replaces
    /// it with a placeholder when that saves gumbo work, and moves past whatever ended the stretch.
    mutating func scanText() {
        var k = position
        while k < count && isSpace(source[k]) { k += 1 }
        let start = k
        let firstPiece = pieces.mark
        let decodedCount = decoded.count
        var pieceStart = k
        var hasMarkup = false
        let elementsAllowed = !stack.inForeignContent
        // In `<select>` gumbo ignores `<p>`; everywhere else outside foreign content a bare `<p>` or `</p>` among
        // text only breaks it into paragraphs.
        let paragraphsAllowed = elementsAllowed && !stack.isOpen(GUMBO_TAG_SELECT.rawValue) && paragraphMayEnd
        // No `p` is open: the stretch's text and its paragraphs are children of the element that is, and what
        // follows a `</p>` is that element's content again, in the page as in gumbo's tree.
        let outsideParagraph = !stack.isOpen(GUMBO_TAG_P.rawValue)
        var holdsElements: UInt8 = 0
        // The last two paragraph tags taken in, to give back (`endParagraphs`).
        var paragraphTags = (last: ParagraphTag?.none, previous: ParagraphTag?.none)
        while k < count {
            let byte = source[k]
            if let last = paragraphTags.last, last.isEndTag, !isSpace(byte),
               byte != ascii("<") || bareParagraphTag(at: k) == nil {
                // Outside any `p` the stretch ends after the `</p>`: left to gumbo, it would make an empty `p` of
                // its own, since the paragraph it closes is not in gumbo's tree.
                if outsideParagraph { break }
                // Content after a `</p>` would be outside any paragraph in gumbo's tree but inside the `p` open
                // before the stretch here: the stretch ends before that `</p>`, which closes the paragraph.
                pieces.truncate(to: last.pieces)
                decoded.removeSubrange(last.decodedCount...)
                k = last.start
                pieceStart = k
                paragraphTags = (paragraphTags.previous, nil)
                break
            }
            if byte >= 0x20 && byte < 0x7F && byte != ascii("<") && byte != ascii("&") || isSpace(byte) {
                k += 1
            } else if byte == ascii("<") {
                if paragraphsAllowed, let length = bareParagraphTag(at: k) {
                    // A `</p>` that closes nothing makes an empty `p` in the body, but before the body (in the head)
                    // the parser ignores it: it is left to gumbo there.
                    if length == 4, !inBody, outsideParagraph, paragraphTags.last?.isEndTag ?? true { break }
                    // A `<p>` with no `p` open starts a paragraph element in gumbo's tree, whose style the page's
                    // rules for `p` give (`p { display: none }`, `p { text-transform: uppercase }`); taken in here,
                    // its text would be its parent's, with the parent's style. It is left to gumbo, and the
                    // paragraphs after it, inside it, are taken in as the paragraphs of a `p` (`FoldedElements`).
                    if length == 3, outsideParagraph { break }
                    addTextPiece(pieceStart..<k, stretchStart: firstPiece)
                    paragraphTags = (ParagraphTag(start: k, end: k + length, pieces: pieces.mark,
                                                  decodedCount: decoded.count), paragraphTags.last)
                    pieces.append(InlinePiece.paragraph(k..<k, ends: length == 4))
                    holdsElements |= PrefilteredMarkup.placeholderHoldsParagraphs
                    k += length
                    pieceStart = k
                    hasMarkup = true
                    continue
                }
                guard elementsAllowed, let (piece, end) = inlineElement(at: k) else { break }
                addTextPiece(pieceStart..<k, stretchStart: firstPiece)
                pieces.append(piece)
                holdsElements |= PrefilteredMarkup.placeholderHoldsInline
                k = end
                pieceStart = k
                hasMarkup = true
            } else if byte == ascii("&") {
                if isReferenceToPlaceholder(at: k) { forgedPlaceholder = true; return }
                guard let (scalar, length) = CharacterReference.decode(source, at: k) else { break }
                addTextPiece(pieceStart..<k, stretchStart: firstPiece)
                let decodedStart = decoded.count
                appendUTF8(scalar, to: &decoded)
                pieces.append(InlinePiece(text: decodedStart..<decoded.count, decoded: true))
                k += length
                pieceStart = k
                hasMarkup = true
            } else if replacedCharacterLength(at: k, end: count) > 0 {
                break
            } else {
                k += 1
            }
        }
        addTextPiece(pieceStart..<k, stretchStart: firstPiece)
        if paragraphTags.last != nil {
            k = endParagraphs(paragraphTags, stretchEnd: k, outsideParagraph: outsideParagraph)
        }
        if pieces.count > firstPiece.pieceCount && (hasMarkup || k - start >= MarkupPrefilter.shortestPlaceholderText) {
            let index = placeholderPieces.count
            placeholderPieces.append(pieces.span(since: firstPiece))
            placeholderElements.append(holdsElements)
            replace(start, k) { out in
                out.append(contentsOf: MarkupPrefilter.placeholderStart)
                appendDecimal(index, to: &out)
                out.append(contentsOf: MarkupPrefilter.placeholderEnd)
            }
        } else {
            pieces.truncate(to: firstPiece)
            decoded.removeSubrange(decodedCount...)
        }
        position = k
        skipWhatEndedStretch()
    }

    /// `stretchStart`: the stretch's first piece; a paragraph's break before it belongs to another placeholder.
    private mutating func addTextPiece(_ range: Range<Int>, stretchStart: InlinePieces.Mark) {
        guard !range.isEmpty else { return }
        if pieces.count > stretchStart.pieceCount, let last = pieces.last, last.tag == GUMBO_TAG_P.rawValue,
           last.text.isEmpty {
            // The paragraph's text carries its break: a page of `<p>x` costs a piece a paragraph (one byte,
            // `InlinePieces`), not two.
            pieces.replaceLast(with: InlinePiece.paragraph(range, ends: last.paragraphEnd))
        } else {
            pieces.append(InlinePiece(text: range))
        }
    }

    /// A `<p>` or `</p>` the stretch took in: where it is, and the pieces and decoded text before it, to give
    /// it back.
    struct ParagraphTag {
        var start: Int, end: Int, pieces: InlinePieces.Mark, decodedCount: Int
        var isEndTag: Bool { end - start == 4 }
    }

    /// Whether a `<p>` or `</p>` here would close nothing but the open `p` (the current node), and no formatting
    /// element is open or may be reopened (the spec's list of active formatting elements; the count keeps those
    /// gumbo may reopen). Otherwise the tag changes what later tags nest in: an element such as `<q>` or `<kbd>`
    /// inside the paragraph ends with it (so its quote or style would end at the tag in gumbo's tree but not in
    /// a stretch of text), and a `<b>` reopened by text between paragraphs would hold the blocks that follow.
    /// The open `p` must have no attributes, since the stretch's text stays in it. With no `p` open, the new
    /// paragraph goes inside whatever is open, as the stretch's text does.
    private var paragraphMayEnd: Bool {
        if stack.tags.contains(where: { TagTraits.of($0).contains(.formatting) }) { return false }
        return !stack.isOpen(GUMBO_TAG_P.rawValue) || stack.tags.last == GUMBO_TAG_P.rawValue && lastParagraphIsBare
    }

    /// `<p>` or `</p>` without attributes at `k`: its length.
    private func bareParagraphTag(at k: Int) -> Int? {
        if k + 2 < count, source[k + 1] | 0x20 == ascii("p"), source[k + 2] == ascii(">") { return 3 }
        if k + 3 < count, source[k + 1] == ascii("/"), source[k + 2] | 0x20 == ascii("p"),
           source[k + 3] == ascii(">") { return 4 }
        return nil
    }

    /// Gives back the stretch's last paragraph tag unless what ends the stretch closes the paragraph the last
    /// `<p>` opened, so the builder's breaks fall where gumbo's elements would end: in the HTML parser a start
    /// tag of these blocks, `<p>` and `</p>` close an open `p` (the spec's "close a p element",
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody>); other content would have gone
    /// into the last paragraph, and its end would come later. The tag given back is such a closer itself, and
    /// nothing but spaces follows a `</p>` in a stretch (`scanText`), so one step back is enough. Returns where
    /// the stretch now ends; a `<p>` left last gets its closing break as a piece of its own.
    /// `outsideParagraph`: no `p` was open before the stretch, so a last `</p>` closes the stretch's own paragraph
    /// whatever follows, and stays in it.
    private mutating func endParagraphs(_ tags: (last: ParagraphTag?, previous: ParagraphTag?),
                                        stretchEnd: Int, outsideParagraph: Bool) -> Int {
        var end = stretchEnd
        var last = tags.last
        if let tag = last, !(outsideParagraph && tag.isEndTag), !closesParagraph(at: end) {
            end = tag.start
            pieces.truncate(to: tag.pieces)
            decoded.removeSubrange(tag.decodedCount...)
            last = tags.previous
        }
        if let last, !last.isEndTag {
            pieces.append(InlinePiece.paragraph(end..<end, ends: true))
        }
        return end
    }

    /// Whether the markup at `k` (or the end of the page) closes an open `p` at once: `</p>`, or the start tag of
    /// `p` or of a block that closes one (not `table`, which keeps it open in quirks mode, nor `form`, which
    /// gumbo may ignore).
    private func closesParagraph(at k: Int) -> Bool {
        guard k < count else { return true }
        guard source[k] == ascii("<"), k + 1 < count else { return false }
        if bareParagraphTag(at: k) != nil { return true }
        guard isLetter(source[k + 1]) else { return false }
        var nameEnd = k + 1
        while nameEnd < count && !isSpace(source[nameEnd]) && source[nameEnd] != ascii("/")
            && source[nameEnd] != ascii(">") { nameEnd += 1 }
        guard nameEnd < count, source[nameEnd] != ascii("/") else { return false }
        let tag = GumboTag.named(UnsafeBufferPointer(rebasing: source[(k + 1)..<nameEnd])).rawValue
        return Self.paragraphClosingTags.contains(tag)
    }

    private static let paragraphClosingTags: Set<UInt32> = Set([
        GUMBO_TAG_P, GUMBO_TAG_DIV, GUMBO_TAG_H1, GUMBO_TAG_H2, GUMBO_TAG_H3, GUMBO_TAG_H4, GUMBO_TAG_H5,
        GUMBO_TAG_H6, GUMBO_TAG_UL, GUMBO_TAG_OL, GUMBO_TAG_DL, GUMBO_TAG_BLOCKQUOTE, GUMBO_TAG_PRE,
        GUMBO_TAG_HR, GUMBO_TAG_LI, GUMBO_TAG_DD, GUMBO_TAG_DT, GUMBO_TAG_ADDRESS, GUMBO_TAG_ARTICLE,
        GUMBO_TAG_ASIDE, GUMBO_TAG_CENTER, GUMBO_TAG_SECTION, GUMBO_TAG_HEADER, GUMBO_TAG_FOOTER, GUMBO_TAG_NAV,
        GUMBO_TAG_MAIN, GUMBO_TAG_FIGURE,
    ].map(\.rawValue))

    /// Leaves a character reference or a character gumbo replaces to gumbo, and steps over it.
    private mutating func skipWhatEndedStretch() {
        guard position < count, source[position] != ascii("<") else { return }
        if source[position] == ascii("&") {
            // A character reference only ever consumes these bytes; whatever follows is text again.
            position += 1
            while position < count && (isAlphanumeric(source[position]) || source[position] == ascii("#")) {
                position += 1
            }
            if position < count && source[position] == ascii(";") { position += 1 }
        } else {
            position += max(1, replacedCharacterLength(at: position, end: count))
        }
    }

    /// `<em>text</em>` and its kin at `k`, when the text is plain: the piece and the index after the end tag.
    private mutating func inlineElement(at k: Int) -> (InlinePiece, Int)? {
        guard k + 1 < count, isLetter(source[k + 1]) else { return nil }
        var nameEnd = k + 1
        while nameEnd < count && !isSpace(source[nameEnd]) && source[nameEnd] != ascii("/")
            && source[nameEnd] != ascii(">") { nameEnd += 1 }
        let name = UnsafeBufferPointer(rebasing: source[(k + 1)..<nameEnd])
        let tag = GumboTag.named(name).rawValue
        guard Self.inlinePlaceholderTags.contains(tag) else { return nil }
        let isAnchor = tag == GUMBO_TAG_A.rawValue
        if isAnchor && (anchorMayBeActive || stack.isOpen(tag)) { return nil }
        guard let (contentStart, selfClosing) = scanAttributes(from: nameEnd), !selfClosing else { return nil }
        let contentEnd = find(ascii("<"), from: contentStart)
        let closeEnd = contentEnd + 3 + name.count
        guard closeEnd <= count, source[contentEnd + 1] == ascii("/"), source[closeEnd - 1] == ascii(">"),
              equalsIgnoringCase(UnsafeBufferPointer(rebasing: source[(contentEnd + 2)..<(closeEnd - 1)]), name),
              isPlain(contentStart..<contentEnd),
              source[contentStart..<contentEnd].contains(where: { !isSpace($0) }) else { return nil }
        var piece = InlinePiece(text: contentStart..<contentEnd, tag: tag)
        var sawClass = false
        for attribute in attributes {
            let attributeName = attributeName(attribute)
            if equalsLowercase(attributeName, "hidden") { return nil }
            // Attributes pages hide with (`[aria-hidden=true]`, `[role=…]`): the element stays one, so its rules can
            // be answered (a piece keeps only a class or an address).
            if equalsLowercase(attributeName, "aria-hidden") || equalsLowercase(attributeName, "role") { return nil }
            // An element styles may select or style (the classes of an `<a>` or `<span>`, any `style`) must stay
            // an element; a formatting element's classes travel with its piece (`InlinePiece.classValue`).
            if equalsLowercase(attributeName, "style")
                || (equalsLowercase(attributeName, "class")
                    && (tag == GUMBO_TAG_A.rawValue || !TagTraits.of(tag).contains(.formatting))) {
                return nil
            }
            if equalsLowercase(attributeName, "class") {
                if sawClass { continue }  // HTML keeps the first of each name
                sawClass = true
                if let value = attributeValue(attribute), isPlain(value) {
                    piece.classValue = value
                } else {
                    if selected.index(of: attributeName) != nil { return nil }
                    piece.droppedAttributes = true
                }
                continue
            }
            // A place a link can name (`id`, or `name` on an anchor) is the builder's to record: gumbo must see it.
            if equalsLowercase(attributeName, "id") || (isAnchor && equalsLowercase(attributeName, "name")) {
                return nil
            }
            // So is a `<label for>`, which names a form control.
            if tag == GUMBO_TAG_LABEL.rawValue && equalsLowercase(attributeName, "for") { return nil }
            if isAnchor && piece.href == nil && equalsLowercase(attributeName, "href") {
                guard let value = attributeValue(attribute), isPlain(value) else { return nil }
                piece.href = value
            } else {
                // An attribute the page's selectors test (`[data-state=closed]`, `abbr[title]`): the element stays
                // one, so its rules can be answered.
                if selected.index(of: attributeName) != nil { return nil }
                piece.droppedAttributes = true
            }
        }
        if piece.droppedAttributes { noteDroppedAttributes(of: piece) }
        return (piece, closeEnd)
    }

    /// Notes the names of the attributes a piece left out (`droppedAttributes`): all but the class and the address
    /// it keeps. A repeated name gumbo would ignore may be noted too, which costs at most a needless second parse.
    private mutating func noteDroppedAttributes(of piece: InlinePiece) {
        for attribute in attributes {
            let name = attributeName(attribute)
            if piece.classValue != nil && equalsLowercase(name, "class") { continue }
            if piece.href != nil && piece.tag == GUMBO_TAG_A.rawValue && equalsLowercase(name, "href") { continue }
            droppedAttributes.insert(name)
        }
    }

    /// Text gumbo would copy unchanged: no markup, no character references, nothing it replaces.
    private func isPlain(_ range: Range<Int>) -> Bool {
        var k = range.lowerBound
        while k < range.upperBound {
            let byte = source[k]
            if byte == ascii("&") || byte == ascii("<") { return false }
            if !(byte >= 0x20 && byte < 0x7F) && !isSpace(byte)
                && replacedCharacterLength(at: k, end: range.upperBound) > 0 { return false }
            k += 1
        }
        return true
    }

    /// Phrasing elements whose only effect on gumbo's tree is to wrap their text (outside SVG and MathML, where
    /// some of them end the foreign content).
    private static let inlinePlaceholderTags: Set<UInt32> = Set([
        GUMBO_TAG_A, GUMBO_TAG_B, GUMBO_TAG_BIG, GUMBO_TAG_CODE, GUMBO_TAG_EM, GUMBO_TAG_I, GUMBO_TAG_S,
        GUMBO_TAG_SMALL, GUMBO_TAG_STRIKE, GUMBO_TAG_STRONG, GUMBO_TAG_TT, GUMBO_TAG_U, GUMBO_TAG_SPAN,
        GUMBO_TAG_ABBR, GUMBO_TAG_CITE, GUMBO_TAG_DFN, GUMBO_TAG_KBD, GUMBO_TAG_SAMP, GUMBO_TAG_VAR,
        GUMBO_TAG_SUB, GUMBO_TAG_SUP, GUMBO_TAG_MARK, GUMBO_TAG_INS, GUMBO_TAG_DEL, GUMBO_TAG_TIME,
        GUMBO_TAG_DATA, GUMBO_TAG_BDI, GUMBO_TAG_LABEL,
    ].map(\.rawValue))

    /// Bytes of a character at `k` that gumbo turns into U+FFFD or drops (NUL, controls, noncharacters), so a
    /// placeholder must not stand for it; 0 for any other character.
    /// <https://github.com/google/gumbo-parser/blob/master/src/utf8.c> `utf8_is_invalid_code_point`
    func replacedCharacterLength(at k: Int, end: Int) -> Int {
        let byte = source[k]
        if byte < 0x20 || byte == 0x7F { return isSpace(byte) ? 0 : 1 }
        func continuation(_ offset: Int) -> UInt8 { k + offset < end ? source[k + offset] : 0 }
        switch byte {
        case 0xC2:  // U+0080 … U+009F
            return (0x80...0x9F).contains(continuation(1)) ? 2 : 0
        case 0xEF:  // U+FDD0 … U+FDEF, U+FFFE, U+FFFF
            let second = continuation(1), third = continuation(2)
            if second == 0xB7 && (0x90...0xAF).contains(third) { return 3 }
            return second == 0xBF && (third == 0xBE || third == 0xBF) ? 3 : 0
        case 0xF0...0xF4:  // U+1FFFE, U+1FFFF, … U+10FFFF
            return continuation(1) & 0x0F == 0x0F && continuation(2) == 0xBF
                && (continuation(3) == 0xBE || continuation(3) == 0xBF) ? 4 : 0
        default:
            return 0
        }
    }

    /// `&#57344;`, `&#xE000` and the like decode to U+E000, which would read as a placeholder.
    private func isReferenceToPlaceholder(at k: Int) -> Bool {
        var j = k + 1
        guard j < count, source[j] == ascii("#") else { return false }
        j += 1
        var hex = false
        if j < count && (source[j] | 0x20) == ascii("x") { hex = true; j += 1 }
        var value = 0
        var digits = 0
        while j < count, let digit = digitValue(source[j], hex: hex) {
            value = min(value * (hex ? 16 : 10) + digit, 0x110000)
            digits += 1
            j += 1
        }
        return digits > 0 && value == MarkupPrefilter.placeholderScalar
    }
}

func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
    if scalar < 0x80 {
        out.append(UInt8(scalar))
    } else if scalar < 0x800 {
        out.append(UInt8(0xC0 | scalar >> 6))
        out.append(UInt8(0x80 | scalar & 0x3F))
    } else if scalar < 0x10000 {
        out.append(UInt8(0xE0 | scalar >> 12))
        out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
        out.append(UInt8(0x80 | scalar & 0x3F))
    } else {
        out.append(UInt8(0xF0 | scalar >> 18))
        out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
        out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
        out.append(UInt8(0x80 | scalar & 0x3F))
    }
}
