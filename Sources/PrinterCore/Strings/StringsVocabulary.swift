/// The words of the strings files (`PrinterStrings`): each key's text in English, German, French and Japanese, in
/// the order of `PrinterStrings.languages`. Keys are as in the files: an attribute name, or `name.keyword` (enum
/// attributes by their keyword here; the files key them by number).
enum StringsVocabulary {
    /// The text of a key in the language at `index`, if the vocabulary has it.
    static func text(_ key: String, _ index: Int) -> String? {
        guard let texts = words[key], texts.indices.contains(index) else { return nil }
        return texts[index]
    }

    /// The values numbered in their keyword (tray-2, stacker-1), and the page orders of number-up, in a language.
    static func numbered(name: String, word: String, language index: Int) -> String? {
        for (prefix, texts) in numberedWords where word.hasPrefix(prefix + "-") {
            let number = word.dropFirst(prefix.count + 1)
            guard !number.isEmpty, number.allSatisfy(\.isNumber) else { return nil }
            return texts[index].split(separator: "%d", omittingEmptySubsequences: false).joined(
                separator: String(number))
        }
        if name == "presentation-direction-number-up" {
            let parts = word.split(separator: "-").map(String.init)
            guard parts.count == 2, let first = directions[parts[0]], let second = directions[parts[1]] else {
                return nil
            }
            return first[index] + (index == 3 ? "、" : ", ") + second[index]
        }
        return nil
    }

    /// A keyword as words (stationery-letterhead: Stationery Letterhead): the last resort.
    static func readable(_ keyword: String) -> String {
        keyword.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    /// Keyword prefixes followed by a number, with `%d` where the number goes.
    static let numberedWords: [(String, [String])] = [
        ("tray", ["Tray %d", "Fach %d", "Bac %d", "トレイ%d"]),
        ("stacker", ["Stacker %d", "Stapler %d", "Empileur %d", "スタッカー%d"]),
        ("roll", ["Roll %d", "Rolle %d", "Rouleau %d", "ロール%d"]),
    ]

    /// The directions of presentation-direction-number-up, as the order they put pages in.
    static let directions: [String: [String]] = [
        "toright": ["left to right", "links nach rechts", "de gauche à droite", "左から右"],
        "toleft": ["right to left", "rechts nach links", "de droite à gauche", "右から左"],
        "tobottom": ["top to bottom", "oben nach unten", "de haut en bas", "上から下"],
        "totop": ["bottom to top", "unten nach oben", "de bas en haut", "下から上"],
    ]

    static let words: [String: [String]] = [
        // Attribute names.
        "copies": ["Copies", "Kopien", "Copies", "部数"],
        "finishings": ["Finishing", "Endbearbeitung", "Finition", "仕上げ"],
        "job-hold-until": ["Hold Until", "Anhalten bis", "Retenir jusqu'à", "保留"],
        "job-sheets": ["Banner Page", "Deckblatt", "Page de garde", "バナーページ"],
        "media": ["Paper Size", "Papierformat", "Format du papier", "用紙サイズ"],
        "media-source": ["Paper Source", "Papierquelle", "Source du papier", "給紙方法"],
        "media-type": ["Paper Type", "Papiertyp", "Type de papier", "用紙の種類"],
        "multiple-document-handling": ["Collation", "Sortierung", "Assemblage", "丁合い"],
        "number-up": ["Pages per Sheet", "Seiten pro Blatt", "Pages par feuille", "割り付け"],
        "orientation-requested": ["Orientation", "Ausrichtung", "Orientation", "印刷の向き"],
        "output-bin": ["Output Tray", "Ausgabefach", "Bac de sortie", "排紙トレイ"],
        "page-ranges": ["Pages", "Seiten", "Pages", "ページ範囲"],
        "presentation-direction-number-up": ["Page Order", "Seitenreihenfolge", "Ordre des pages", "ページの順序"],
        "print-color-mode": ["Color", "Farbe", "Couleur", "カラー"],
        "print-content-optimize": ["Optimize For", "Optimieren für", "Optimiser pour", "最適化"],
        "print-quality": ["Print Quality", "Druckqualität", "Qualité d'impression", "印刷品質"],
        "print-rendering-intent": ["Rendering Intent", "Farbwiedergabe", "Rendu des couleurs", "レンダリングインテント"],
        "print-scaling": ["Scaling", "Skalierung", "Mise à l'échelle", "拡大縮小"],
        "printer-resolution": ["Resolution", "Auflösung", "Résolution", "解像度"],
        "sides": ["Two-Sided", "Beidseitig", "Recto verso", "両面印刷"],

        // finishings (by keyword; the files key them by number).
        "finishings.none": ["None", "Keine", "Aucune", "なし"],
        "finishings.staple": ["Staple", "Heften", "Agrafer", "ホチキス止め"],
        "finishings.punch": ["Punch", "Lochen", "Perforer", "パンチ穴"],
        "finishings.fold": ["Fold", "Falzen", "Plier", "折り"],
        "finishings.fold-half": ["Half Fold", "Halbfalz", "Pli en deux", "二つ折り"],
        "finishings.saddle-stitch": ["Saddle Stitch", "Rückstichheftung", "Piqûre à cheval", "中綴じ"],
        "finishings.staple-top-left": ["Staple Top Left", "Heftung oben links", "Agrafe en haut à gauche", "左上ホチキス止め"],
        "finishings.staple-top-right": [
            "Staple Top Right", "Heftung oben rechts", "Agrafe en haut à droite", "右上ホチキス止め",
        ],
        "finishings.staple-dual-left": [
            "Two Staples Left", "Zwei Heftklammern links", "Deux agrafes à gauche", "左2か所ホチキス止め",
        ],
        "finishings.staple-dual-top": [
            "Two Staples Top", "Zwei Heftklammern oben", "Deux agrafes en haut", "上2か所ホチキス止め",
        ],
        "finishings.punch-dual-left": ["Two Holes Left", "Zweifachlochung links", "Deux trous à gauche", "左2穴パンチ"],
        "finishings.punch-dual-top": ["Two Holes Top", "Zweifachlochung oben", "Deux trous en haut", "上2穴パンチ"],
        "finishings.punch-triple-left": [
            "Three Holes Left", "Dreifachlochung links", "Trois trous à gauche", "左3穴パンチ",
        ],
        "finishings.punch-quad-left": ["Four Holes Left", "Vierfachlochung links", "Quatre trous à gauche", "左4穴パンチ"],
        "finishings.trim-after-pages": [
            "Cut After Each Page", "Nach jeder Seite schneiden", "Couper après chaque page", "ページごとにカット",
        ],
        "finishings.trim-after-job": [
            "Cut After the Job", "Nach dem Auftrag schneiden", "Couper après le travail", "ジョブの後でカット",
        ],

        "job-hold-until.no-hold": ["Print Now", "Sofort drucken", "Imprimer maintenant", "すぐに印刷"],
        "job-hold-until.indefinite": ["Until Released", "Bis zur Freigabe", "Jusqu'à libération", "解除するまで"],
        "job-hold-until.day-time": ["Daytime", "Tagsüber", "En journée", "日中"],
        "job-hold-until.evening": ["Evening", "Abends", "Le soir", "夕方"],
        "job-hold-until.night": ["Night", "Nachts", "La nuit", "夜間"],
        "job-hold-until.second-shift": ["Second Shift", "Zweite Schicht", "Deuxième équipe", "第2シフト"],
        "job-hold-until.third-shift": ["Third Shift", "Dritte Schicht", "Troisième équipe", "第3シフト"],
        "job-hold-until.weekend": ["Weekend", "Wochenende", "Week-end", "週末"],

        "job-sheets.none": ["None", "Keines", "Aucune", "なし"],

        "media-source.auto": ["Automatic", "Automatisch", "Automatique", "自動選択"],
        "media-source.by-pass-tray": [
            "Multipurpose Tray", "Mehrzweckzufuhr", "Bac multifonction", "手差しトレイ",
        ],
        "media-source.main": ["Main Tray", "Hauptfach", "Bac principal", "メイントレイ"],
        "media-source.main-roll": ["Main Roll", "Hauptrolle", "Rouleau principal", "メインロール"],
        "media-source.manual": ["Manual Feed", "Manuelle Zufuhr", "Alimentation manuelle", "手動給紙"],
        "media-source.photo": ["Photo Tray", "Fotofach", "Bac photo", "フォトトレイ"],

        "media-type.cardstock": ["Cardstock", "Karton", "Carton", "厚紙"],
        "media-type.continuous": ["Continuous Paper", "Endlospapier", "Papier continu", "連続用紙"],
        "media-type.envelope": ["Envelope", "Umschlag", "Enveloppe", "封筒"],
        "media-type.labels": ["Labels", "Etiketten", "Étiquettes", "ラベル"],
        "media-type.photographic": ["Photo Paper", "Fotopapier", "Papier photo", "写真用紙"],
        "media-type.photographic-glossy": [
            "Glossy Photo Paper", "Fotopapier glänzend", "Papier photo brillant", "光沢写真用紙",
        ],
        "media-type.photographic-high-gloss": [
            "High-Gloss Photo Paper", "Fotopapier hochglänzend", "Papier photo très brillant", "高光沢写真用紙",
        ],
        "media-type.photographic-matte": ["Matte Photo Paper", "Fotopapier matt", "Papier photo mat", "マット写真用紙"],
        "media-type.photographic-satin": [
            "Satin Photo Paper", "Fotopapier seidenmatt", "Papier photo satiné", "サテン写真用紙",
        ],
        "media-type.photographic-semi-gloss": [
            "Semi-Gloss Photo Paper", "Fotopapier halbglänzend", "Papier photo semi-brillant", "半光沢写真用紙",
        ],
        "media-type.stationery": ["Plain Paper", "Normalpapier", "Papier ordinaire", "普通紙"],
        "media-type.stationery-bond": ["Bond Paper", "Bondpapier", "Papier bond", "ボンド紙"],
        "media-type.stationery-coated": ["Coated Paper", "Gestrichenes Papier", "Papier couché", "コート紙"],
        "media-type.stationery-colored": ["Colored Paper", "Farbiges Papier", "Papier de couleur", "色付き用紙"],
        "media-type.stationery-heavyweight": ["Heavy Paper", "Schweres Papier", "Papier épais", "厚手の普通紙"],
        "media-type.stationery-letterhead": ["Letterhead", "Briefpapier", "Papier à en-tête", "レターヘッド"],
        "media-type.stationery-lightweight": ["Light Paper", "Leichtes Papier", "Papier fin", "薄手の普通紙"],
        "media-type.stationery-preprinted": [
            "Preprinted Paper", "Vorgedrucktes Papier", "Papier préimprimé", "印刷済み用紙",
        ],
        "media-type.stationery-prepunched": [
            "Prepunched Paper", "Vorgelochtes Papier", "Papier perforé", "穴あき用紙",
        ],
        "media-type.stationery-recycled": ["Recycled Paper", "Recyclingpapier", "Papier recyclé", "再生紙"],
        "media-type.transparency": ["Transparency", "Folie", "Transparent", "OHPフィルム"],

        "multiple-document-handling.separate-documents-collated-copies": [
            "Collated", "Sortiert", "Assemblées", "部単位",
        ],
        "multiple-document-handling.separate-documents-uncollated-copies": [
            "Uncollated", "Nicht sortiert", "Non assemblées", "ページ単位",
        ],

        "orientation-requested.portrait": ["Portrait", "Hochformat", "Portrait", "縦"],
        "orientation-requested.landscape": ["Landscape", "Querformat", "Paysage", "横"],
        "orientation-requested.reverse-landscape": [
            "Reverse Landscape", "Querformat gedreht", "Paysage inversé", "横（逆向き）",
        ],
        "orientation-requested.reverse-portrait": [
            "Reverse Portrait", "Hochformat gedreht", "Portrait inversé", "縦（逆向き）",
        ],
        "orientation-requested.none": ["Automatic", "Automatisch", "Automatique", "自動"],

        "output-bin.face-down": ["Face Down", "Schriftseite unten", "Face vers le bas", "フェイスダウン"],
        "output-bin.face-up": ["Face Up", "Schriftseite oben", "Face vers le haut", "フェイスアップ"],
        "output-bin.top": ["Top Tray", "Oberes Fach", "Bac supérieur", "上部トレイ"],

        "print-color-mode.auto": ["Automatic", "Automatisch", "Automatique", "自動"],
        "print-color-mode.color": ["Color", "Farbe", "Couleur", "カラー"],
        "print-color-mode.monochrome": ["Grayscale", "Graustufen", "Niveaux de gris", "グレースケール"],

        "print-content-optimize.auto": ["Automatic", "Automatisch", "Automatique", "自動"],
        "print-content-optimize.graphic": ["Graphics", "Grafiken", "Graphiques", "グラフィックス"],
        "print-content-optimize.photo": ["Photo", "Foto", "Photo", "写真"],
        "print-content-optimize.text": ["Text", "Text", "Texte", "テキスト"],
        "print-content-optimize.text-and-graphic": [
            "Text and Graphics", "Text und Grafiken", "Texte et graphiques", "テキストとグラフィックス",
        ],

        "print-quality.draft": ["Draft", "Entwurf", "Brouillon", "ドラフト"],
        "print-quality.normal": ["Normal", "Normal", "Normale", "標準"],
        "print-quality.high": ["Best", "Hoch", "Élevée", "高品質"],

        "print-rendering-intent.auto": ["Automatic", "Automatisch", "Automatique", "自動"],
        "print-rendering-intent.perceptual": ["Perceptual", "Wahrnehmungsorientiert", "Perceptuel", "知覚的"],
        "print-rendering-intent.relative": [
            "Relative Colorimetric", "Relativ farbmetrisch", "Colorimétrie relative", "相対的な色域",
        ],
        "print-rendering-intent.relative-bpc": [
            "Relative Colorimetric with Black Point Compensation", "Relativ farbmetrisch mit Tiefenkompensierung",
            "Colorimétrie relative avec compensation du point noir", "黒点補正付き相対的な色域",
        ],

        "print-scaling.auto": ["Automatic", "Automatisch", "Automatique", "自動"],
        "print-scaling.auto-fit": ["Shrink to Fit", "Bei Bedarf verkleinern", "Réduire si besoin", "必要に応じて縮小"],
        "print-scaling.fill": ["Fill the Page", "Seite füllen", "Remplir la page", "用紙全体に印刷"],
        "print-scaling.fit": ["Fit to Page", "An Seite anpassen", "Ajuster à la page", "用紙に合わせる"],
        "print-scaling.none": ["Actual Size", "Originalgröße", "Taille réelle", "実際のサイズ"],

        "sides.one-sided": ["Off", "Aus", "Non", "オフ"],
        "sides.two-sided-long-edge": [
            "Long-Edge Binding", "Bindung an der langen Kante", "Reliure bord long", "長辺綴じ",
        ],
        "sides.two-sided-short-edge": [
            "Short-Edge Binding", "Bindung an der kurzen Kante", "Reliure bord court", "短辺綴じ",
        ],
    ]
}
