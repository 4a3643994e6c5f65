import IPP

/// What the checker needs of the printer a request was for: the attributes it advertises, as Get-Printer-Attributes
/// answers them. The printer's side (PrinterHTTP) gives its attribute cache this shape; a test gives a dictionary.
public protocol AdvertisedAttributes: Sendable {
    /// The printer attribute of this name, nil when the printer has none.
    func advertised(_ name: String) -> IPPAttribute?
    /// Whether the printer answers with an attribute of this name (its static attributes and its state ones).
    func hasAttribute(_ name: String) -> Bool
}

/// Advertised attributes given as a list: for tests, and for anything holding a profile's attributes.
public struct AttributeList: AdvertisedAttributes {
    public let attributes: [String: IPPAttribute]
    /// Names answered besides `attributes` (the printer's state attributes).
    public let otherNames: Set<String>

    public init(_ list: [IPPAttribute], otherNames: Set<String> = []) {
        var byName: [String: IPPAttribute] = [:]
        for attribute in list { byName[attribute.name] = attribute }
        attributes = byName
        self.otherNames = otherNames
    }

    public func advertised(_ name: String) -> IPPAttribute? { attributes[name] }
    public func hasAttribute(_ name: String) -> Bool { attributes[name] != nil || otherNames.contains(name) }
}
