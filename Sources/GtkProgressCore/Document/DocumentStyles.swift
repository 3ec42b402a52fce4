internal import CGumbo
import FoundationEssentials

/// A page's author stylesheets, gathered from its tree before the walk writes any text: `<style>` elements and
/// `<link rel="stylesheet">` in document order, each with its `@import`s before it (CSS Cascade 4 §2.1), the
/// `media` attributes and `@media` rules read for `PageStyleOptions.media`.
struct DocumentStyles {
    private(set) var rules = CSSRuleSet()
    /// What was left out and why, one line each, for the status line and stderr.
    private(set) var notes: [String] = []
    /// Linked or imported sheets neither in `PageStyleOptions.sheets` nor fetchable here: the window fetches them
    /// and builds the page again.
    private(set) var missing: [URL] = []
    /// The widths at which the page's media queries change their answer (`Document.mediaWidths`).
    private(set) var mediaWidths: Set<Double> = []
    private var totalBytes = 0
    private var sheetCount = 0
    private var tooDeep = 0
    private var tooManyRules = false
    private let options: PageStyleOptions
    /// Whether the tree answers for attributes of a name (`PrefilteredMarkup.answers`).
    private let attributeKnown: (String) -> Bool
    /// What `options.fetch` gave for each sheet it was asked for, so that a second parse of the page
    /// (`DocumentBuilder.build`) asks for none again.
    private(set) var fetched: [(url: URL, result: Result<[UInt8], PageStyleOptions.SheetProblem>)] = []

    /// Lets the fetched sheets go once the page will not be parsed again.
    mutating func forgetFetched() { fetched = [] }

    private init(options: PageStyleOptions, attributeKnown: @escaping (String) -> Bool) {
        self.options = options
        self.attributeKnown = attributeKnown
    }

    /// `attributeKnown`: whether the tree carries every attribute of that (lowercase) name the page gave its
    /// elements; rules whose selectors test another are left out (`CSSRuleSet.add`).
    static func collect(from document: GumboNodeRef, baseURL: URL?, options: PageStyleOptions,
                        attributeKnown: @escaping (String) -> Bool) -> DocumentStyles {
        var styles = DocumentStyles(options: options, attributeKnown: attributeKnown)
        guard options.enabled else { return styles }
        var base = baseURL
        var stack: [GumboNodeRef] = [document]
        var sheets: [(bytes: [UInt8]?, url: URL?)] = []
        var attributeWidths: [Double] = []
        // Children pushed in reverse so they come off the stack in document order.
        while let node = stack.popLast() {
            if node.isElement {
                switch node.tag {
                case GUMBO_TAG_STYLE.rawValue where node.isHTML:
                    if styles.applies(type: node.attribute("type"), media: node.attribute("media"), widths: &attributeWidths) {
                        var bytes: [UInt8] = []
                        for index in 0..<node.childCount where node.child(index).isText {
                            bytes.append(contentsOf: node.child(index).text)
                        }
                        sheets.append((bytes, base))
                    }
                    continue
                case GUMBO_TAG_LINK.rawValue:
                    let rel = (node.attribute("rel") ?? "").lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
                    if rel.contains("stylesheet"), !rel.contains("alternate"), let href = node.attribute("href"),
                       styles.applies(type: node.attribute("type"), media: node.attribute("media"),
                                      widths: &attributeWidths),
                       let url = LinkResolution.resolve(LinkResolution.trim(href), against: base) {
                        sheets.append((nil, url))
                    }
                    continue
                case GUMBO_TAG_BASE.rawValue:
                    if base == baseURL, let href = node.attribute("href"),
                       let resolved = LinkResolution.resolve(LinkResolution.trim(href), against: baseURL) {
                        base = resolved
                    }
                    continue
                case GUMBO_TAG_TEMPLATE.rawValue, GUMBO_TAG_SVG.rawValue, GUMBO_TAG_NOSCRIPT.rawValue:
                    continue
                default:
                    break
                }
            } else if node.type != GUMBO_NODE_DOCUMENT {
                continue
            }
            var index = node.childCount - 1
            while index >= 0 {
                let child = node.child(index)
                if child.isElement { stack.append(child) }
                index -= 1
            }
        }
        styles.mediaWidths.formUnion(attributeWidths)
        for sheet in sheets {
            if let bytes = sheet.bytes {
                styles.load(bytes, url: sheet.url, isInline: true, chain: [])
            } else if let url = sheet.url {
                styles.loadLinked(url, chain: [])
            }
        }
        if styles.tooDeep > 0 {
            styles.notes.append(L("Page style: %@ rules nested too deep were left out.", String(styles.tooDeep)))
        }
        if styles.rules.rulesInTooManyLayers > 0 {
            styles.notes.append(L("Page style: more than %@ cascade layers; %@ rules in the others were left out.",
                                  String(CSSRuleSet.maximumLayers), String(styles.rules.rulesInTooManyLayers)))
        }
        if styles.rules.rulesWithTooLongSelectors > 0 {
            styles.notes.append(L("Page style: %@ rules with selectors of more than %@ parts were left out.",
                                  String(styles.rules.rulesWithTooLongSelectors), String(CSSSelector.maximumCompounds)))
        }
        if styles.tooManyRules {
            styles.notes.append(L("Page style: more than %@ rules; the rest were left out.",
                                  String(CSSParser.maximumRules)))
        }
        return styles
    }

    /// `type` empty or `text/css`; `media` empty or matching the screen (HTML's "style sheet ready" rules).
    /// The widths at which `media` changes its answer go into `widths`.
    private func applies(type: String?, media: String?, widths: inout [Double]) -> Bool {
        if let type = type?.trimmed().lowercased(), !type.isEmpty, type != "text/css" { return false }
        guard let media, !media.trimmed().isEmpty else { return true }
        let list = CSSParser.parseComponents(media)
        widths += CSSMedia.widths(in: list)
        return options.media.matches(queryList: list)
    }

    /// `layer`: the cascade layer an `@import ... layer(name)` puts the sheet in (CSS Cascade 5 §2).
    private mutating func loadLinked(_ url: URL, chain: [URL], layer: [String] = []) {
        guard sheetCount < PageStyleOptions.maximumSheets else { return }
        sheetCount += 1
        let bytes: [UInt8]
        if let fetched = options.sheets[url] {
            bytes = fetched
        } else {
            let result = options.fetch?(url)
            if let result { fetched.append((url, result)) }
            switch result {
            case .success(let fetched)?:
                bytes = fetched
            case .failure(let problem)?:
                notes.append(L("Page style: %@", problem.message))
                return
            case nil:
                if !missing.contains(url) { missing.append(url) }
                return
            }
        }
        load(bytes, url: url, isInline: false, chain: chain + [url], layer: layer)
    }

    private mutating func load(_ bytes: [UInt8], url: URL?, isInline: Bool, chain: [URL], layer: [String] = []) {
        var bytes = bytes
        let room = PageStyleOptions.maximumTotalBytes - totalBytes
        let cap = min(PageStyleOptions.maximumSheetBytes, max(room, 0))
        if bytes.count > cap {
            let name = isInline ? L("a style element") : (url?.absoluteString ?? "")
            notes.append(L("Page style: %@ is cut at %@ of %@.", name, GeneratedPages.formatBytes(cap),
                           GeneratedPages.formatBytes(bytes.count)))
            bytes = Array(bytes[..<cap])
        }
        totalBytes += bytes.count
        let colours = options.colours
        let parsed = CSSParser.parseStyleSheet(bytes, media: options.media, keepsColours: colours,
                                               keepsProperty: { CSSCascade.isUsed($0, colours: colours) })
        tooDeep += parsed.tooDeep
        mediaWidths.formUnion(parsed.mediaWidths)
        tooManyRules = tooManyRules || parsed.tooManyRules
        // Layers are ordered by first declaration (CSS Cascade 5 §6.4.3): those an `@layer` statement names before
        // an `@import`, then the import's own layer, then whatever its sheet declares.
        let scope = rules.newLayerScope()
        var declared = 0
        for item in parsed.imports {
            while declared < item.layersBefore {
                rules.declareLayer(CSSRuleSet.layerPath(parsed.layers[declared], under: layer, scope: scope))
                declared += 1
            }
            var inner = layer
            if let named = item.layer {
                inner = CSSRuleSet.layerPath(named, under: layer, scope: scope)
                // Declared even when the sheet cannot be loaded (w3c/csswg-drafts#6776).
                rules.declareLayer(inner)
            }
            guard let imported = LinkResolution.resolve(LinkResolution.trim(item.address), against: url) else { continue }
            if chain.contains(imported) {
                notes.append(L("Page style: %@ imports itself; the loop was not followed.", imported.absoluteString))
            } else if chain.count >= PageStyleOptions.maximumImportDepth {
                notes.append(L("Page style: imports deeper than %@ were not followed.",
                               String(PageStyleOptions.maximumImportDepth)))
            } else {
                loadLinked(imported, chain: chain, layer: inner)
            }
        }
        rules.add(parsed, attributeKnown: attributeKnown, layer: layer, scope: scope)
    }
}
