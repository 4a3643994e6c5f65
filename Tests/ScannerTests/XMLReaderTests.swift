import Testing

@testable import Scanner

/// The small XML reader of scan settings: what it reads, and what it refuses with where.
@Suite struct XMLReaderTests {
    @Test func elementsTextReferencesAndCDATAAreRead() throws {
        let root = try XMLReader.read(
            Array(
                """
                <?xml version="1.0"?>
                <!-- a comment -->
                <a:Root xmlns:a="urn:x" attr='1'>
                  <a:Name>fish &amp; chips &#x41;&#66;</a:Name>
                  <Empty/>
                  <Raw><![CDATA[<not an element>]]></Raw>
                </a:Root>
                """.utf8))
        #expect(root.name == "Root")
        #expect(root.value("Name") == "fish & chips AB")
        #expect(root.child("Empty")?.text == "")
        #expect(root.value("Raw") == "<not an element>")
    }

    @Test(arguments: [
        ("<!DOCTYPE x [<!ENTITY e \"boom\">]><x>&e;</x>", "document type declaration"),
        ("<x>&e;</x>", "unknown entity"),
        ("<x><y></x>", "closes"),
        ("<x>", "is not closed"),
        ("", "no root element"),
        ("<x/><y/>", "content after the root element"),
        ("<x a=1/>", "without quotes"),
        ("<x>&#xFFFFFFFF;</x>", "bad character reference"),
    ])
    func malformedDocumentsAreRefused(text: String, reason: String) {
        #expect {
            _ = try XMLReader.read(Array(text.utf8))
        } throws: { error in
            (error as? XMLReader.Failure)?.message.contains(reason) == true
        }
    }

    @Test func theSizeAndDepthLimitsHold() throws {
        let deep =
            String(repeating: "<a>", count: XMLReader.maximumDepth)
            + String(
                repeating: "</a>", count: XMLReader.maximumDepth)
        _ = try XMLReader.read(Array(deep.utf8))
        let deeper = "<a>" + deep + "</a>"
        #expect(throws: XMLReader.Failure.self) { try XMLReader.read(Array(deeper.utf8)) }
        let big = "<a>" + String(repeating: "x", count: XMLReader.maximumBytes) + "</a>"
        #expect(throws: XMLReader.Failure.self) { try XMLReader.read(Array(big.utf8)) }
    }
}
