extension ScannerCapabilities {
    /// The eSCL ScannerCapabilities document (Mopria eSCL section 8.1.4): the scanner's identity, and for each
    /// source its areas, color modes, formats and resolutions. `adminURI` is the scanner's web page.
    public func xml(adminURI: String) -> String {
        ESCLXML.document("scan:ScannerCapabilities") { xml in
            xml.element("pwg:Version", Self.version)
            xml.element("pwg:MakeAndModel", makeAndModel)
            xml.element("pwg:SerialNumber", serialNumber)
            xml.element("scan:UUID", uuid)
            xml.element("scan:AdminURI", adminURI)
            if let platen {
                xml.element("scan:Platen") { xml in
                    xml.element("scan:PlatenInputCaps") { inputCaps(&$0, platen) }
                }
            }
            if let feeder {
                xml.element("scan:Adf") { xml in
                    xml.element("scan:AdfSimplexInputCaps") { inputCaps(&$0, feeder) }
                    if duplex {
                        xml.element("scan:AdfDuplexInputCaps") { inputCaps(&$0, feeder) }
                    }
                    xml.element("scan:FeederCapacity", feederCapacity)
                    xml.element("scan:AdfOptions") { xml in
                        xml.element("scan:AdfOption", "DetectPaperLoaded")
                        if duplex { xml.element("scan:AdfOption", "Duplex") }
                    }
                }
            }
        }
    }

    private func inputCaps(_ xml: inout ESCLXML, _ area: Area) {
        xml.element("scan:MinWidth", Self.minimumSide)
        xml.element("scan:MaxWidth", area.width)
        xml.element("scan:MinHeight", Self.minimumSide)
        xml.element("scan:MaxHeight", area.height)
        xml.element("scan:MaxScanRegions", 1)
        xml.element("scan:SettingProfiles") { xml in
            xml.element("scan:SettingProfile") { xml in
                xml.element("scan:ColorModes") { xml in
                    for mode in colorModes { xml.element("scan:ColorMode", mode.rawValue) }
                }
                xml.element("scan:DocumentFormats") { xml in
                    for format in formats { xml.element("pwg:DocumentFormat", format.rawValue) }
                    for format in formats { xml.element("scan:DocumentFormatExt", format.rawValue) }
                }
                xml.element("scan:SupportedResolutions") { xml in
                    xml.element("scan:DiscreteResolutions") { xml in
                        for dpi in resolutions {
                            xml.element("scan:DiscreteResolution") { xml in
                                xml.element("scan:XResolution", dpi)
                                xml.element("scan:YResolution", dpi)
                            }
                        }
                    }
                }
                xml.element("scan:ColorSpaces") { $0.element("scan:ColorSpace", "sRGB") }
            }
        }
        xml.element("scan:SupportedIntents") { xml in
            for intent in ["Document", "TextAndGraphic", "Photo", "Preview"] { xml.element("scan:Intent", intent) }
        }
        xml.element("scan:MaxOpticalXResolution", resolutions.last ?? 300)
        xml.element("scan:MaxOpticalYResolution", resolutions.last ?? 300)
        xml.element("scan:RiskyLeftMargin", 0)
        xml.element("scan:RiskyRightMargin", 0)
        xml.element("scan:RiskyTopMargin", 0)
        xml.element("scan:RiskyBottomMargin", 0)
    }
}
