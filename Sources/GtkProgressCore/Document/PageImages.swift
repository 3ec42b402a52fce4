import FoundationEssentials

/// The images a document build has met, with their addresses as written; resolved once `<base href>` is known,
/// as links are.
struct PageImages {
    /// A `<picture>`'s `<source>`: its `srcset`, and the `type` and `media` that say whether it applies.
    struct Source {
        var srcset: String?
        var type: String?
        var media: String?
    }

    private struct Pending {
        var offset: Int
        var hrefs: [String]
        var alt: String?
        var width: Int?
        var height: Int?
        var lazy: Bool
        var link: Int?
    }

    private var pending: [Pending] = []

    var count: Int { pending.count }

    /// Image `index` is at `offset` (it was written into a table cell, and the table into the document).
    mutating func move(_ index: Int, to offset: Int) { pending[index].offset = offset }

    /// Forgets the images from `index` on (they are shown as their alt text after all).
    mutating func removeAll(from index: Int) { pending.removeSubrange(index...) }

    /// Notes an image. HTML's image source selection: the first `<source>` whose `type` is read here and whose
    /// `media` matches gives the `srcset` to choose from; without one, the `<img>`'s own `srcset`, with `src` as
    /// its `1x` candidate. <https://html.spec.whatwg.org/multipage/images.html#update-the-source-set>
    mutating func add(offset: Int, src: String?, srcset: String?, sources: [Source], alt: String?, width: Int?,
                      height: Int?, lazy: Bool, link: Int?, selection: ImageSelection) {
        var hrefs: [String] = []
        var chosenSet: String?
        for source in sources {
            if let type = source.type?.trimmed().lowercased(), !type.isEmpty,
               !selection.types.contains(type.split(separator: ";").first.map { String($0).trimmed() } ?? type) {
                continue
            }
            guard Srcset.mediaMatches(source.media, viewportWidth: selection.viewportWidth),
                  let set = source.srcset, !set.trimmed().isEmpty else { continue }
            chosenSet = set
            break
        }
        let src = src.map(LinkResolution.trim).flatMap { $0.isEmpty ? nil : $0 }
        var candidates = Srcset.parse(chosenSet ?? srcset ?? "", viewportWidth: selection.viewportWidth)
        if chosenSet == nil, let src, !candidates.contains(where: { $0.byWidth || abs($0.density - 1) < 1e-9 }) {
            candidates.append(Srcset.Candidate(url: src, density: 1))
        }
        if let best = Srcset.choose(candidates, scale: selection.scale) { hrefs.append(LinkResolution.trim(best.url)) }
        if let src, !hrefs.contains(src) { hrefs.append(src) }
        let words = alt?.split(whereSeparator: { $0.isASCII && $0.isWhitespace }).joined(separator: " ")
        pending.append(Pending(offset: offset, hrefs: hrefs, alt: words, width: width, height: height, lazy: lazy,
                               link: link))
    }

    /// The images with their addresses resolved against `base`, and their links renumbered as the document's.
    func resolved(against base: URL?, links remap: [Int?]) -> [PageImage] {
        pending.map { image in
            var seen = Set<URL>()
            let urls = image.hrefs.compactMap { href -> URL? in
                guard let url = LinkResolution.resolve(href, against: base), seen.insert(url).inserted else { return nil }
                return url
            }
            let link = image.link.flatMap { remap.indices.contains($0) ? remap[$0] : nil }
            return PageImage(offset: image.offset, candidates: urls, alt: image.alt, width: image.width,
                             height: image.height, lazy: image.lazy, link: link)
        }
    }
}
